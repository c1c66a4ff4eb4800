import { actorOf, requireAdmin } from "~/lib/auth.server";
import { formCreated, parseSubmission, perform } from "~/lib/forms.server";
import { retryAfterOfAction } from "~/lib/route-errors.server";
import { APP_FAILED_MESSAGES, appKeyForm, type NewAppKey } from "#domain/apps.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/apps-create";

/** Too many tries: the page a browser without JavaScript gets back says when to come back. */
export const headers = retryAfterOfAction;

/**
 * The new-key form of Settings → Apps. Its answer is the page itself, not a redirect: the key's
 * secrets are shown this once and kept nowhere a redirect could read them back from.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { apps } = context.get(appContext).services;
  const submission = await parseSubmission(request, appKeyForm);
  if (!submission.ok) return submission.response;
  const created = await perform(
    context,
    () => apps.keys.createKey({ ...actorOf(user), id: user.id, role: user.role }, submission.input),
    { values: submission.values, field: "name", messages: APP_FAILED_MESSAGES },
  );
  if (!created.ok) return created.response;
  return formCreated<"name" | "scope", typeof submission.values, NewAppKey>(
    { name: "", scope: "drafts" },
    created.value,
  );
}

/** A page route, not a resource route: a post without JavaScript gets the Apps page back, key and all. */
export default function AppsCreate() {
  return null;
}
