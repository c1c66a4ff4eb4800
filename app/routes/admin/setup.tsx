import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Field, FormError, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { EMAIL_MAX, PASSWORD_MIN, setupForm } from "#domain/account.ts";
import { formText, queryText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import type { SetupLinkState } from "#server/accounts/index.ts";
import { PasswordInput } from "~/components/ui/password-input";
import type { Route } from "./+types/setup";

const CLOSED_STATUS: Record<Exclude<SetupLinkState, "open">, number> = { closed: 410, invalid: 404 };
const NO_STORE = { "Cache-Control": "private, no-store" };
const CREATE_FAILED_MESSAGE = "The account could not be created. Please try again.";

export function headers() {
  return NO_STORE;
}

/** The first admin, from the one-time link that `npm start` prints while the blog has none. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const token = queryText(new URL(request.url), "token");
  const state = await services.setup.checkSetupLink(token);
  return data(
    { state, token: state === "open" ? token : "" },
    { status: state === "open" ? 200 : CLOSED_STATUS[state], headers: NO_STORE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, sessionCookie, logger } = context.get(appContext);
  const submission = await parseSubmission(request, setupForm);
  // Passwords never come back to the page.
  if (!submission.ok) {
    const { values, errors } = submission.response.data;
    return formFailure({ email: values.email.trim().slice(0, EMAIL_MAX) }, { errors }, 400, NO_STORE);
  }
  const { input, formData } = submission;
  const outcome = await perform(
    context,
    async () => {
      const result = await services.setup.createFirstAdmin(formText(formData, "token"), input.email, input.password);
      if (!result.created) {
        return data({ state: result.state }, { status: CLOSED_STATUS[result.state], headers: NO_STORE });
      }
      logger.info({ email: result.email }, "first admin created through the setup link");
      const { token: sessionToken } = await services.auth.signIn(input.email, input.password);
      return redirect("/admin", { headers: { "Set-Cookie": await sessionCookie.issue(sessionToken) } });
    },
    { values: { email: input.email }, messages: { DATABASE_UNAVAILABLE: CREATE_FAILED_MESSAGE } },
  );
  return outcome.ok ? outcome.value : outcome.response;
}

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const result = actionData && "values" in actionData ? actionData : undefined;
  const state = actionData && "state" in actionData ? actionData.state : loaderData.state;
  const form = useValidatedForm(setupForm, { id: "setup", result });
  const creating = navigation.state === "submitting";

  return (
    <div className="mx-auto w-full max-w-md py-8 sm:py-12">
      <title>Create the first admin</title>
      <meta name="robots" content="noindex" />
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        {state === "closed" ? (
          <>
            <h1 className="text-2xl font-bold tracking-tight">Setup is complete</h1>
            <p className="mt-3 text-slate-700 dark:text-slate-300">
              An admin account already exists, so this setup link no longer works.
            </p>
            <Link to="/login" className="mt-6 inline-block font-medium text-indigo-700 underline dark:text-indigo-300">
              Sign in instead
            </Link>
          </>
        ) : state === "invalid" ? (
          <>
            <h1 className="text-2xl font-bold tracking-tight">This setup link is not valid</h1>
            <p className="mt-3 text-slate-700 dark:text-slate-300">
              It may have expired or been mistyped. Restart the server to print a new link, or create the admin with{" "}
              <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">npm run blog -- create-admin</code>.
            </p>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold tracking-tight">Create the first admin</h1>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              This link works once: after this account exists, sign in at /login.
            </p>
            <Form method="post" {...form.props} className="mt-6 space-y-5">
              <input type="hidden" name="token" value={loaderData.token} />
              <FormError message={form.formError} />
              <TextField
                {...form.field("email")}
                label="Email"
                type="email"
                autoComplete="username"
                maxLength={EMAIL_MAX}
                defaultValue={result?.values.email}
              />
              <Field {...form.field("password")} label={`Password (at least ${PASSWORD_MIN} characters)`}>
                {(control) => <PasswordInput {...control} name="password" autoComplete="new-password" />}
              </Field>
              <Field {...form.field("confirmPassword")} label="Repeat password">
                {(control) => <PasswordInput {...control} name="confirmPassword" autoComplete="new-password" />}
              </Field>
              <button type="submit" disabled={creating} className={`${buttonStyles.primary} w-full`}>
                {creating ? "Creating…" : "Create admin account"}
              </button>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}
