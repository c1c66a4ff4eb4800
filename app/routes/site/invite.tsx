import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Field, FormError, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { signedInCookies } from "~/lib/auth.server";
import { useValidatedForm } from "~/lib/forms";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { acceptInvitationForm, DISPLAY_NAME_MAX, PASSWORD_MIN } from "#domain/account.ts";
import { formText, queryText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import { PasswordInput } from "~/components/ui/password-input";
import type { Route } from "./+types/invite";

const NO_STORE = { "Cache-Control": "private, no-store" };

export function headers() {
  return NO_STORE;
}

/** Where an invited person creates their account, from the link the owner sent them. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = queryText(new URL(request.url), "token");
  const invitation = await context.get(appContext).services.users.checkInvitation(token);
  return data(invitation ? { open: true as const, token, email: invitation.email } : { open: false as const }, {
    status: invitation ? 200 : 410,
    headers: NO_STORE,
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context.get(appContext);
  const submission = await parseSubmission(request, acceptInvitationForm);
  if (!submission.ok) {
    const { values, errors } = submission.response.data;
    return formFailure({ displayName: values.displayName }, { errors }, 400, NO_STORE);
  }
  const { input, formData } = submission;
  const outcome = await perform(
    context,
    async () => {
      const account = await services.users.acceptInvitation(
        formText(formData, "token"),
        input.displayName,
        input.password,
      );
      const { token } = await services.auth.signIn(account.email, input.password, {
        userAgent: request.headers.get("User-Agent") ?? "",
      });
      return redirect("/admin", { headers: await signedInCookies(context, token, account.email) });
    },
    {
      values: { displayName: input.displayName },
      messages: { DATABASE_UNAVAILABLE: "The account could not be created. Please try again." },
    },
  );
  return outcome.ok ? outcome.value : outcome.response;
}

export default function Invite({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const form = useValidatedForm(acceptInvitationForm, { id: "invite", result: actionData });
  return (
    <div className="mx-auto w-full max-w-md py-8 sm:py-12">
      <title>Join the blog</title>
      <meta name="robots" content="noindex" />
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        {loaderData.open ? (
          <>
            <h1 className="text-2xl font-bold tracking-tight">Join the blog</h1>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              You were invited as <strong>{loaderData.email}</strong>. Choose how you appear and a password.
            </p>
            <Form method="post" {...form.props} className="mt-6 space-y-5">
              <input type="hidden" name="token" value={loaderData.token} />
              <FormError message={form.formError} />
              <TextField
                {...form.field("displayName")}
                label="Display name"
                autoComplete="name"
                maxLength={DISPLAY_NAME_MAX}
                defaultValue={actionData?.values.displayName ?? ""}
              />
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
                Create account
              </button>
            </Form>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold tracking-tight">This invitation link is not valid</h1>
            <p className="mt-3 text-slate-700 dark:text-slate-300">
              It was used already, revoked, or is more than 7 days old. Ask the blog's owner for a new one.
            </p>
            <Link to="/" className="mt-6 inline-block font-medium text-indigo-700 underline dark:text-indigo-300">
              Back to Home
            </Link>
          </>
        )}
      </div>
    </div>
  );
}
