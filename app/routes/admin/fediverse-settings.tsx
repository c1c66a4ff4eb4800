import { actorOf, requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { parseSubmission, perform } from "~/lib/forms.server";
import { fediverseSettingsForm } from "#domain/fediverse.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/fediverse-settings";

/** The settings form of /admin/fediverse: the handle, approving follows by hand, the blocked list. */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const submission = await parseSubmission(request, fediverseSettingsForm);
  if (!submission.ok) return submission.response;
  const saved = await perform(
    context,
    () => context.get(appContext).services.fediverse.saveSettings(submission.input, actorOf(owner)),
    { values: submission.values, messages: { DATABASE_UNAVAILABLE: "Failed to save the settings. Please try again." } },
  );
  if (!saved.ok) return saved.response;
  return redirectWithFlash(request, "/admin/fediverse", "fediverse-saved");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Fediverse page back with its message. */
export default function FediverseSettings() {
  return null;
}
