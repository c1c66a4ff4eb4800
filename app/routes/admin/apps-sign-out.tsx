import { actorOf, requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { UNKNOWN_ACTION_MESSAGE } from "#domain/account.ts";
import { APP_FAILED_MESSAGES } from "#domain/apps.ts";
import { signOutIndieAuthAppForm } from "#domain/micropub.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/apps-sign-out";

/** Sign out on Settings → Apps: an app signed in with IndieAuth as this writer, or as anyone for the owner. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { micropub } = context.get(appContext).services;
  const submission = await parseSubmission(request, signOutIndieAuthAppForm);
  if (!submission.ok) return formFailure({}, { formError: UNKNOWN_ACTION_MESSAGE }, 400);
  const signedOut = await perform(
    context,
    () => micropub.indieAuth.signOutApp({ ...actorOf(user), id: user.id, role: user.role }, submission.input.id),
    { values: {}, messages: APP_FAILED_MESSAGES },
  );
  if (!signedOut.ok) return signedOut.response;
  return redirectWithFlash(request, "/admin/settings/apps", "app-signed-out");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Apps page back with its message. */
export default function AppsSignOut() {
  return null;
}
