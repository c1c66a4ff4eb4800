import { requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { formText } from "#domain/forms.ts";
import { removeSubscriberForm, SUBSCRIBER_NOT_FOUND_MESSAGE } from "#domain/subscribers.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribers-remove";

const LIST = "/admin/subscribers";

/** The list the button was on (its tab, search and page), and never another site. */
function backTo(formData: FormData): string {
  const back = formText(formData, "back");
  return back === LIST || back.startsWith(`${LIST}?`) ? back : LIST;
}

/** Remove on /admin/subscribers: the subscriber is deleted for good (a data-protection request). */
export async function action({ request, context }: Route.ActionArgs) {
  requireOwner({ request, context });
  const submission = await parseSubmission(request, removeSubscriberForm);
  if (!submission.ok) return formFailure({}, { formError: SUBSCRIBER_NOT_FOUND_MESSAGE }, 400);
  const removed = await perform(
    context,
    () => context.get(appContext).services.subscribers.remove(submission.input.id),
    { values: {} },
  );
  if (!removed.ok) return removed.response;
  return redirectWithFlash(request, backTo(submission.formData), "subscriber-removed");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Subscribers page back with its message. */
export default function SubscribersRemove() {
  return null;
}
