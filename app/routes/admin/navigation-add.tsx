import { actorOf, requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { addNavigationLinkFormFor, NAVIGATION_SAVE_FAILED_MESSAGE } from "#domain/navigation.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/navigation-add";

/** The Add link form of either menu on /admin/navigation: the owner's alone, like Settings. */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const { services } = context.get(appContext);
  const categories = (await services.categories.list()).map((category) => category.name);
  const submission = await parseSubmission(request, addNavigationLinkFormFor(categories));
  if (!submission.ok) return submission.response;
  const { menu, link } = submission.input;
  const done = await perform(context, () => services.navigation.change({ action: "add", menu, link }, actorOf(owner)), {
    values: submission.values,
    messages: {
      PAGE_NOT_FOUND: "That page no longer exists. Choose another.",
      DATABASE_UNAVAILABLE: NAVIGATION_SAVE_FAILED_MESSAGE,
    },
  });
  if (!done.ok) return done.response;
  if (!done.value.ok) return formFailure(submission.values, { formError: done.value.message }, 409);
  return redirectWithFlash(request, "/admin/navigation", "navigation-saved");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Navigation page back with its message. */
export default function NavigationAdd() {
  return null;
}
