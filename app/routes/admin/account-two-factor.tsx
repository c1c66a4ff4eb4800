import { redirect } from "react-router";
import { knownDeviceFor, requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formCreated, formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { ACCOUNT_FAILED_MESSAGES, tooManySignInAttemptsMessage, twoFactorForm } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/account-two-factor";

/**
 * The two-factor panel of /admin/account: set up, confirm with a code, or turn off. Codes and
 * passwords are never sent back to the page; the recovery codes are, this once.
 */
/** A refusal's Retry-After reaches the page a browser without JavaScript gets back. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { services, clientAddress } = context.get(appContext);
  const submission = await parseSubmission(request, twoFactorForm);
  if (!submission.ok) {
    const { intent: formError, ...errors } = submission.response.data.errors as Record<string, string>;
    return formFailure({}, { errors, formError }, 400);
  }
  const input = submission.input;
  const refusal = { values: {}, messages: ACCOUNT_FAILED_MESSAGES };

  if (input.intent === "start") {
    const started = await perform(context, () => services.twoFactor.startEnrolment(user.id), refusal);
    return started.ok ? redirect("/admin/account") : started.response;
  }
  if (input.intent === "confirm") {
    const confirmed = await perform(context, () => services.twoFactor.confirmEnrolment(user.id, input.code), {
      ...refusal,
      field: "code",
    });
    if (!confirmed.ok) return confirmed.response;
    return formCreated({}, { recoveryCodes: confirmed.value });
  }
  // Password and code are guessed here as at sign-in's code step, so the same limits hold them.
  const attempt = {
    accountId: user.id,
    clientAddress,
    knownDevice: await knownDeviceFor(request, context, user.email),
  };
  const disabled = await perform(
    context,
    () =>
      services.loginThrottle.guardCodeStep(attempt, async () => {
        await services.auth.confirmPassword(user.id, input.password);
        await services.twoFactor.verifyCode(user.id, input.code);
        await services.twoFactor.disable(user.id);
      }),
    {
      ...refusal,
      messages: {
        ...ACCOUNT_FAILED_MESSAGES,
        RATE_LIMITED: (failure) => tooManySignInAttemptsMessage(Number(failure.headers["Retry-After"])),
      },
    },
  );
  if (!disabled.ok) return disabled.response;
  return redirectWithFlash(request, "/admin/account", "two-factor-off");
}

/** A page route, not a resource route: a post without JavaScript gets the account page back, messages and all. */
export default function AccountTwoFactor() {
  return null;
}
