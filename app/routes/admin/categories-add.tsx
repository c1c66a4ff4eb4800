import { actorOf, requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { parseSubmission, perform } from "~/lib/forms.server";
import { addCategoryForm, CATEGORIES_SAVE_FAILED_MESSAGE } from "#domain/categories.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/categories-add";

/** The Add a category form on /admin/categories. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin({ request, context });
  const submission = await parseSubmission(request, addCategoryForm);
  if (!submission.ok) return submission.response;
  const done = await perform(
    context,
    () => context.get(appContext).services.categories.add(submission.input, actorOf(admin)),
    { values: submission.values, messages: { DATABASE_UNAVAILABLE: CATEGORIES_SAVE_FAILED_MESSAGE } },
  );
  if (!done.ok) return done.response;
  return redirectWithFlash(request, "/admin/categories", "categories-saved");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Categories page back with its message. */
export default function CategoriesAdd() {
  return null;
}
