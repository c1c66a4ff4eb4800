import { actorOf, requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { CATEGORIES_SAVE_FAILED_MESSAGE, categoryChangeForm } from "#domain/categories.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/categories-change";

const UNKNOWN_CHANGE_MESSAGE = "The change could not be read. Please reload the page and try again.";

/** Rename, Describe, Move up, Move down and Delete on /admin/categories. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin({ request, context });
  const submission = await parseSubmission(request, categoryChangeForm);
  if (!submission.ok) {
    // A name, a description and the category for a deleted one's posts are what a row asks for.
    const { errors } = submission.response.data;
    const message = errors.name ?? errors.description ?? errors.moveTo ?? UNKNOWN_CHANGE_MESSAGE;
    return formFailure({}, { formError: message }, 400);
  }
  const done = await perform(
    context,
    () => context.get(appContext).services.categories.change(submission.input, actorOf(admin)),
    { values: {}, messages: { DATABASE_UNAVAILABLE: CATEGORIES_SAVE_FAILED_MESSAGE } },
  );
  if (!done.ok) return done.response;
  return redirectWithFlash(request, "/admin/categories", "categories-saved");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Categories page back with its message. */
export default function CategoriesChange() {
  return null;
}
