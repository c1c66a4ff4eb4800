import { requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { parseSubmission, perform } from "~/lib/forms.server";
import { addSubscriberForm } from "#domain/subscribers.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribers-add";

/** The add form of /admin/subscribers: one address whose owner asked for the newsletter, active at once. */
export async function action({ request, context }: Route.ActionArgs) {
  requireOwner({ request, context });
  const submission = await parseSubmission(request, addSubscriberForm);
  if (!submission.ok) return submission.response;
  const added = await perform(context, () => context.get(appContext).services.subscribers.add(submission.input), {
    values: submission.values,
    field: "email",
  });
  if (!added.ok) return added.response;
  return redirectWithFlash(request, "/admin/subscribers", "subscriber-added");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Subscribers page back with its message. */
export default function SubscribersAdd() {
  return null;
}
