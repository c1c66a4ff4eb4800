import { data, Form, Link, useNavigation } from "react-router";
import { FormError, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import { formCreated, parseSubmission, perform } from "~/lib/forms.server";
import { EMAIL_MAX, forgotPasswordForm, RESET_REQUESTED_MESSAGE } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/forgot-password";

const NO_STORE = { "Cache-Control": "private, no-store" };

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(NO_STORE);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

/** Where a writer who forgot their password asks for a link; there is nothing to ask while email is off. */
export function loader({ context }: Route.LoaderArgs) {
  return data({ emailOn: context.get(appContext).services.email.isOnNow() }, { headers: NO_STORE });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, clientAddress } = context.get(appContext);
  const submission = await parseSubmission(request, forgotPasswordForm);
  if (!submission.ok) return submission.response;
  // The same answer whether or not an account has the address: nobody learns which do.
  const outcome = await perform(context, () => services.passwordReset.request(submission.input.email, clientAddress), {
    values: submission.values,
    field: "email",
    messages: {
      RATE_LIMITED: "That is a lot of reset requests. Please wait an hour and try again.",
      DATABASE_UNAVAILABLE: "That did not work. Please try again.",
    },
  });
  return outcome.ok ? formCreated({ email: "" }, { sent: true }) : outcome.response;
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const form = useValidatedForm(forgotPasswordForm, { id: "forgot-password", result: actionData });
  return (
    <div className="mx-auto w-full max-w-md py-8 sm:py-12">
      <title>Forgot your password?</title>
      <meta name="robots" content="noindex" />
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-bold tracking-tight">Forgot your password?</h1>
        {actionData?.created ? (
          <p role="status" className="mt-3 text-slate-700 dark:text-slate-300">
            {RESET_REQUESTED_MESSAGE}
          </p>
        ) : loaderData.emailOn ? (
          <>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Enter your account's email address and we will send you a link to choose a new password.
            </p>
            <Form method="post" {...form.props} className="mt-6 space-y-5">
              <FormError message={form.formError} />
              <TextField
                {...form.field("email")}
                label="Email"
                type="email"
                autoComplete="username"
                inputMode="email"
                maxLength={EMAIL_MAX}
                defaultValue={actionData?.values.email ?? ""}
              />
              <button
                type="submit"
                disabled={navigation.state === "submitting"}
                className={`${buttonStyles.primary} w-full`}
              >
                Send the link
              </button>
            </Form>
          </>
        ) : (
          <p className="mt-3 text-slate-700 dark:text-slate-300">
            This blog sends no email yet. Ask the blog's owner, or reset the password on the server with{" "}
            <code>npm run blog -- reset-password</code>.
          </p>
        )}
        <Link to="/login" className="mt-6 inline-block font-medium text-indigo-700 underline dark:text-indigo-300">
          Back to sign in
        </Link>
      </div>
    </div>
  );
}
