import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Field, FormError } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { PASSWORD_MIN, resetPasswordForm } from "#domain/account.ts";
import { formText, queryText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import { PasswordInput } from "~/components/ui/password-input";
import type { Route } from "./+types/reset-password";

const NO_STORE = { "Cache-Control": "private, no-store" };

export function headers() {
  return NO_STORE;
}

/** Where an emailed reset link opens: the new password, twice. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = queryText(new URL(request.url), "token");
  const open = await context.get(appContext).services.passwordReset.isOpen(token);
  return data(open ? { open: true as const, token } : { open: false as const }, {
    status: open ? 200 : 410,
    headers: NO_STORE,
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context.get(appContext);
  const submission = await parseSubmission(request, resetPasswordForm);
  // Passwords never come back to the page.
  if (!submission.ok) return formFailure({}, { errors: submission.response.data.errors }, 400, NO_STORE);
  const { input, formData } = submission;
  const outcome = await perform(
    context,
    async () => {
      await services.passwordReset.reset(formText(formData, "token"), input.password);
      return redirect("/login?reset=1", { headers: NO_STORE });
    },
    { values: {}, messages: { DATABASE_UNAVAILABLE: "That did not work. Please try again." } },
  );
  return outcome.ok ? outcome.value : outcome.response;
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const form = useValidatedForm(resetPasswordForm, { id: "reset-password", result: actionData });
  return (
    <div className="mx-auto w-full max-w-md py-8 sm:py-12">
      <title>Choose a new password</title>
      <meta name="robots" content="noindex" />
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        {loaderData.open ? (
          <>
            <h1 className="text-2xl font-bold tracking-tight">Choose a new password</h1>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Every device signed in to this account is signed out. Two-factor sign-in stays on.
            </p>
            <Form method="post" {...form.props} className="mt-6 space-y-5">
              <input type="hidden" name="token" value={loaderData.token} />
              <FormError message={form.formError} />
              <Field {...form.field("password")} label="Password" hint={`At least ${PASSWORD_MIN} characters.`}>
                {(control) => <PasswordInput {...control} name="password" autoComplete="new-password" />}
              </Field>
              <Field {...form.field("confirmPassword")} label="Repeat password">
                {(control) => <PasswordInput {...control} name="confirmPassword" autoComplete="new-password" />}
              </Field>
              <button
                type="submit"
                disabled={navigation.state === "submitting"}
                className={`${buttonStyles.primary} w-full`}
              >
                Save the new password
              </button>
            </Form>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold tracking-tight">This link no longer works</h1>
            <p className="mt-3 text-slate-700 dark:text-slate-300">
              This link has expired or has already been used. Ask for a new one.
            </p>
            <Link
              to="/forgot-password"
              className="mt-6 inline-block font-medium text-indigo-700 underline dark:text-indigo-300"
            >
              Ask for a new link
            </Link>
          </>
        )}
      </div>
    </div>
  );
}
