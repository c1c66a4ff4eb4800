import { actorOf, requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { NAVIGATION_SAVE_FAILED_MESSAGE, navigationChangeForm } from "#domain/navigation.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/navigation-change";

const UNKNOWN_CHANGE_MESSAGE = "The change could not be read. Please reload the page and try again.";

/**
 * Rename, Move up, Move down, Remove and Reset to defaults on /admin/navigation, and a drag (which
 * posts a move to where the link was dropped): the owner's alone.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const submission = await parseSubmission(request, navigationChangeForm);
  if (!submission.ok) {
    // A new label is the one thing typed here; any other refusal is a post the screen never makes.
    const { errors } = submission.response.data;
    return formFailure({}, { formError: errors.label ?? UNKNOWN_CHANGE_MESSAGE }, 400);
  }
  const done = await perform(
    context,
    () => context.get(appContext).services.navigation.change(submission.input, actorOf(owner)),
    { values: {}, messages: { DATABASE_UNAVAILABLE: NAVIGATION_SAVE_FAILED_MESSAGE } },
  );
  if (!done.ok) return done.response;
  if (!done.value.ok) return formFailure({}, { formError: done.value.message }, 409);
  return redirectWithFlash(request, "/admin/navigation", "navigation-saved");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Navigation page back with its message. */
export default function NavigationChange() {
  return null;
}
