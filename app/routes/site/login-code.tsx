import { Form, redirect, useNavigation } from "react-router";
import { FormError, TextField } from "~/components/ui/field";
import { buttonStyles, textLinkStyles } from "~/components/ui/styles";
import { knownDeviceFor, safeRedirectPath, signedInCookies } from "~/lib/auth.server";
import { useValidatedForm } from "~/lib/forms";
import { formFailure, parseSubmission } from "~/lib/forms.server";
import { answerDomainErrors, type DomainFailure } from "~/lib/route-errors.server";
import { LOGIN_FAILED_MESSAGE, tooManySignInAttemptsMessage, twoFactorCodeForm } from "#domain/account.ts";
import type { DomainError } from "#domain/errors.ts";
import { formText, queryText } from "#domain/forms.ts";
import { appContext, userContext } from "#server/request-context.ts";
import type { Route } from "./+types/login-code";

const NO_STORE = { "Cache-Control": "private, no-store" };

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(NO_STORE);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

/** The second sign-in step: only reachable with the short-lived cookie the password step set. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirectPath(queryText(new URL(request.url), "redirectTo"));
  if (context.get(userContext)) throw redirect(redirectTo);
  if (!(await context.get(appContext).twoFactorCookie.read(request))) throw redirect("/login");
  return { redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, twoFactorCookie, clientAddress } = context.get(appContext);
  const challenge = await twoFactorCookie.read(request);
  if (!challenge) throw redirect("/login");
  const submission = await parseSubmission(request, twoFactorCodeForm);
  if (!submission.ok) return submission.response;
  const redirectTo = safeRedirectPath(formText(submission.formData, "redirectTo"));
  const refusal = {
    messages: { DATABASE_UNAVAILABLE: LOGIN_FAILED_MESSAGE },
    answer: async (failure: DomainFailure, error: DomainError) => {
      // The challenge outlived its few minutes: the password step again, without the stale cookie.
      if (error.code === "TWO_FACTOR_EXPIRED") {
        throw redirect("/login", { headers: { "Set-Cookie": await twoFactorCookie.clear() } });
      }
      const message =
        failure.status === 429 ? tooManySignInAttemptsMessage(Number(failure.headers["Retry-After"])) : failure.message;
      return formFailure({ code: "" }, { errors: { code: message } }, failure.status, failure.headers);
    },
  };
  return answerDomainErrors(context, refusal, async () => {
    const attempt = {
      accountId: challenge.adminId,
      clientAddress,
      knownDevice: await knownDeviceFor(request, context, challenge.email),
    };
    const { token } = await services.loginThrottle.guardCodeStep(attempt, () =>
      services.auth.completeTwoFactorSignIn(challenge, submission.input.code, {
        userAgent: request.headers.get("User-Agent") ?? "",
      }),
    );
    return redirect(redirectTo, { headers: await signedInCookies(context, token, challenge.email) });
  });
}

export default function LoginCode({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const checking = navigation.state === "submitting";
  const form = useValidatedForm(twoFactorCodeForm, { id: "login-code", result: actionData });
  return (
    <div className="mx-auto w-full max-w-md py-8 sm:py-12">
      <title>Enter your code</title>
      <meta name="robots" content="noindex" />
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-bold tracking-tight">Enter your code</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Open your authenticator app and enter the 6-digit code it shows for this blog.
        </p>
        <Form method="post" {...form.props} className="mt-6 space-y-5">
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <FormError message={form.formError} />
          <TextField
            {...form.field("code")}
            label="Code"
            hint="Lost your phone? Enter one of your recovery codes instead."
            type="text"
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={40}
          />
          <button type="submit" disabled={checking} className={`${buttonStyles.primary} w-full`}>
            {checking ? "Checking…" : "Verify"}
          </button>
        </Form>
        <a href="/login" className={`${textLinkStyles} mt-6 inline-block text-sm`}>
          Start again
        </a>
      </div>
    </div>
  );
}
