import { actorOf, requireOwner } from "~/lib/auth.server";
import { formCreated, parseSubmission, perform } from "~/lib/forms.server";
import { type NewWebhook, WEBHOOK_FAILED_MESSAGES, webhookForm } from "#domain/webhooks.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/webhooks-create";

/**
 * The new-webhook form of Settings → Webhooks (the owner's alone). Its answer is the page itself,
 * not a redirect: the signing secret is shown this once and kept nowhere a redirect could read it from.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireOwner({ request, context });
  const { webhooks } = context.get(appContext).services;
  const submission = await parseSubmission(request, webhookForm);
  if (!submission.ok) return submission.response;
  const created = await perform(context, () => webhooks.create(actorOf(user), submission.input), {
    values: submission.values,
    field: "url",
    messages: { DATABASE_UNAVAILABLE: WEBHOOK_FAILED_MESSAGES.DATABASE_UNAVAILABLE },
  });
  if (!created.ok) return created.response;
  return formCreated<"event" | "url", typeof submission.values, NewWebhook>(
    { event: submission.values.event, url: "" },
    created.value,
  );
}

/** A page route, not a resource route: a post without JavaScript gets the Webhooks page back, secret and all. */
export default function WebhooksCreate() {
  return null;
}
