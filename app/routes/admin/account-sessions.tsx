import { requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { ACCOUNT_FAILED_MESSAGES, sessionsForm, UNKNOWN_ACTION_MESSAGE } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/account-sessions";

/** The sessions panel of /admin/account: sign out one other session, or all of them. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { services, sessionCookie } = context.get(appContext);
  const submission = await parseSubmission(request, sessionsForm);
  if (!submission.ok) return formFailure({}, { formError: UNKNOWN_ACTION_MESSAGE }, 400);
  const input = submission.input;
  const token = (await sessionCookie.read(request)) ?? "";
  const signedOut = await perform(
    context,
    async () => {
      if (input.intent === "sign-out-others") await services.auth.signOutOtherSessions(user.id, token);
      else await services.auth.signOutSession(user.id, input.id);
    },
    { values: {}, messages: ACCOUNT_FAILED_MESSAGES },
  );
  if (!signedOut.ok) return signedOut.response;
  return redirectWithFlash(request, "/admin/account", "signed-out");
}

/** A page route, not a resource route: a post without JavaScript gets the account page back, messages and all. */
export default function AccountSessions() {
  return null;
}
