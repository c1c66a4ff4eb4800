import { actorOf, requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { UNKNOWN_ACTION_MESSAGE } from "#domain/account.ts";
import { removeWebhookForm, WEBHOOK_FAILED_MESSAGES } from "#domain/webhooks.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/webhooks-remove";

/** Remove on Settings → Webhooks: the webhook and the calls it still had queued. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireOwner({ request, context });
  const { webhooks } = context.get(appContext).services;
  const submission = await parseSubmission(request, removeWebhookForm);
  if (!submission.ok) return formFailure({}, { formError: UNKNOWN_ACTION_MESSAGE }, 400);
  const removed = await perform(context, () => webhooks.remove(actorOf(user), submission.input.id), {
    values: {},
    messages: WEBHOOK_FAILED_MESSAGES,
  });
  if (!removed.ok) return removed.response;
  return redirectWithFlash(request, "/admin/settings/webhooks", "webhook-removed");
}

/** A page route, not a resource route: a refusal without JavaScript gets the Webhooks page back with its message. */
export default function WebhooksRemove() {
  return null;
}
