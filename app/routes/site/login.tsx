import { useEffect, useRef } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { Field, FormError, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { knownDeviceFor, safeRedirectPath, signedInCookies } from "~/lib/auth.server";
import { useValidatedForm } from "~/lib/forms";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import {
  EMAIL_MAX,
  INVALID_CREDENTIALS_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  loginForm,
  tooManySignInAttemptsMessage,
} from "#domain/account.ts";
import { formText } from "#domain/forms.ts";
import { appContext, userContext } from "#server/request-context.ts";
import { PasswordInput } from "~/components/ui/password-input";
import type { Route } from "./+types/login";

const FORM_ERROR_ID = "login-error";

/** The form is per visitor and never cached; a refusal says when to come back. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

export function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  if (context.get(userContext)) throw redirect(redirectTo);
  return {
    redirectTo,
    // The reset link goes by email, so it is offered only while email is on.
    canResetPassword: context.get(appContext).services.email.isOnNow(),
    passwordReset: new URL(request.url).searchParams.get("reset") === "1",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, twoFactorCookie, clientAddress } = context.get(appContext);
  const submission = await parseSubmission(request, loginForm);
  // The password never comes back to the page.
  if (!submission.ok) {
    const { values, errors } = submission.response.data;
    const email = values.email.trim().slice(0, EMAIL_MAX);
    return formFailure({ email }, { errors, formError: Object.values(errors)[0] ?? LOGIN_FAILED_MESSAGE }, 400);
  }
  const { input, formData } = submission;
  const redirectTo = safeRedirectPath(formText(formData, "redirectTo"));

  const outcome = await perform(
    context,
    async () => {
      const attempt = {
        email: input.email,
        clientAddress,
        knownDevice: await knownDeviceFor(request, context, input.email),
      };
      const step = await services.loginThrottle.guardSignIn(attempt, () =>
        services.auth.beginSignIn(input.email, input.password, { userAgent: request.headers.get("User-Agent") ?? "" }),
      );
      if (step.kind === "two-factor") {
        const next = `/login/code?${new URLSearchParams({ redirectTo })}`;
        return redirect(next, { headers: { "Set-Cookie": await twoFactorCookie.issue(step.challenge) } });
      }
      return redirect(redirectTo, { headers: await signedInCookies(context, step.token, input.email) });
    },
    {
      values: { email: input.email.slice(0, EMAIL_MAX) },
      messages: {
        INVALID_CREDENTIALS: INVALID_CREDENTIALS_MESSAGE,
        DATABASE_UNAVAILABLE: LOGIN_FAILED_MESSAGE,
        RATE_LIMITED: (failure) => tooManySignInAttemptsMessage(Number(failure.headers["Retry-After"])),
      },
    },
  );
  return outcome.ok ? outcome.value : outcome.response;
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const signingIn = navigation.state === "submitting" && navigation.formAction?.startsWith("/login") === true;
  const form = useValidatedForm(loginForm, { id: "login", result: actionData });
  // The spec has one message for the whole form ("Please enter both email and password").
  const message = form.formError ?? Object.values(form.errors)[0];
  const passwordRef = useRef<HTMLInputElement>(null);
  const submittedPassword = useRef<string | undefined>(undefined);
  // A refused password is cleared, as the server never sends it back; one typed again while
  // the answer was on its way is kept.
  useEffect(() => {
    const field = passwordRef.current;
    if (actionData?.formError && field && field.value === submittedPassword.current) field.value = "";
  }, [actionData]);
  return (
    <div className="mx-auto w-full max-w-md py-8 sm:py-12">
      <title>Admin Login</title>
      <meta name="robots" content="noindex" />
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-bold tracking-tight">Admin Login</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Sign in to manage your blog.</p>
        {loaderData.passwordReset && (
          <p role="status" className="mt-3 text-sm text-emerald-700 dark:text-emerald-300">
            Your new password is saved. Sign in with it.
          </p>
        )}
        <Form
          method="post"
          {...form.props}
          onSubmitCapture={() => {
            submittedPassword.current = passwordRef.current?.value;
          }}
          className="mt-6 space-y-5"
        >
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <FormError id={FORM_ERROR_ID} message={message} />
          <TextField
            id={form.field("email").id}
            error={undefined}
            onEdit={form.field("email").onEdit}
            describedBy={form.errors.email || form.formError ? FORM_ERROR_ID : undefined}
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            maxLength={EMAIL_MAX}
            defaultValue={actionData?.values.email ?? ""}
          />
          <Field
            id={form.field("password").id}
            error={undefined}
            onEdit={form.field("password").onEdit}
            describedBy={form.errors.password || form.formError ? FORM_ERROR_ID : undefined}
            label="Password"
          >
            {(control) => (
              <PasswordInput {...control} ref={passwordRef} name="password" autoComplete="current-password" />
            )}
          </Field>
          <button type="submit" disabled={signingIn} className={`${buttonStyles.primary} w-full`}>
            {signingIn ? "Signing in…" : "Sign in"}
          </button>
        </Form>
        {loaderData.canResetPassword && (
          <Link
            to="/forgot-password"
            className="mt-4 inline-block text-sm font-medium text-indigo-700 underline dark:text-indigo-300"
          >
            Forgot your password?
          </Link>
        )}
      </div>
    </div>
  );
}
