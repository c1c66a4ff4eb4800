import { actorOf, requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { UNKNOWN_ACTION_MESSAGE } from "#domain/account.ts";
import { APP_FAILED_MESSAGES, revokeAppKeyForm } from "#domain/apps.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/apps-revoke";

/** Revoke on Settings → Apps: a writer's own keys, or any key for the owner. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { apps } = context.get(appContext).services;
  const submission = await parseSubmission(request, revokeAppKeyForm);
  if (!submission.ok) return formFailure({}, { formError: UNKNOWN_ACTION_MESSAGE }, 400);
  const revoked = await perform(
    context,
    () => apps.keys.revokeKey({ ...actorOf(user), id: user.id, role: user.role }, { id: submission.input.id }),
    { values: {}, messages: APP_FAILED_MESSAGES },
  );
  if (!revoked.ok) return revoked.response;
  return redirectWithFlash(request, "/admin/settings/apps", "app-key-revoked");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Apps page back with its message. */
export default function AppsRevoke() {
  return null;
}
