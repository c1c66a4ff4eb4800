import { data, Form, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { Notice, Panel } from "~/components/admin/panel";
import { FormError, SelectField, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { SecretsShownOnce } from "~/components/admin/secrets-shown-once";
import { requireOwner } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { formatDate } from "~/lib/format";
import { useValidatedForm } from "~/lib/forms";
import { withRouteErrors } from "~/lib/route-errors.server";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX,
  type WebhookLastDelivery,
  webhookForm,
} from "#domain/webhooks.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/webhooks";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load the webhooks. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    requireOwner({ request, context });
    const { services } = context.get(appContext);
    const webhooks = await services.webhooks.list();
    const flash = await takeFlash(request);
    return data({ webhooks, notice: flash.message }, { headers: flash.headers });
  },
);

const EVENT_OPTIONS = WEBHOOK_EVENTS.map((event) => ({ value: event, label: WEBHOOK_EVENT_LABELS[event] }));

/** How the last call went, in a sentence the owner reads at a glance. */
function lastCallSentence(last: WebhookLastDelivery | null): string {
  if (!last) return "Not called yet.";
  switch (last.state) {
    case "delivered":
      return `Last call delivered ${formatDate(last.at)}.`;
    case "failed":
      return `Last call failed. ${last.lastError ?? ""}`;
    default:
      return last.lastError ? `Last call waiting to be sent again. ${last.lastError}` : "Last call being sent.";
  }
}

/**
 * Settings → Webhooks: a URL called when a post is published, changed or unpublished, or a comment
 * is received. The form posts to webhooks-create.tsx, whose answer (the signing secret, shown
 * once) renders this page; Remove posts to webhooks-remove.tsx.
 */
export default function Webhooks({ loaderData }: Route.ComponentProps) {
  const { webhooks, notice } = loaderData;
  const busy = useNavigation().state === "submitting";
  const createResult = useRoute("routes/admin/webhooks-create")?.actionData;
  const removeResult = useRoute("routes/admin/webhooks-remove")?.actionData;
  const form = useValidatedForm(webhookForm, { id: "webhook", result: createResult });
  const created = createResult?.created;
  return (
    <>
      <title>Webhooks · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Webhooks</h1>
      <div className="mt-6 space-y-6">
        <Notice message={createResult || removeResult ? undefined : notice} />
        <FormError message={removeResult?.formError} />
        <Panel id="new-webhook-heading" title="Add a webhook">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            The blog sends a signed JSON message to the URL each time the event happens, and tries again for a few hours
            when it does not answer. Addresses on this machine or a private network are refused.
          </p>
          <Form method="post" action="/admin/settings/webhooks/create" {...form.props} className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                {...form.field("event")}
                label="When"
                options={EVENT_OPTIONS}
                defaultValue={createResult?.values.event ?? "post.published"}
              />
              <TextField
                {...form.field("url")}
                label="Call this URL"
                type="url"
                inputMode="url"
                autoComplete="off"
                maxLength={WEBHOOK_URL_MAX}
                defaultValue={createResult?.values.url ?? ""}
              />
            </div>
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Add webhook
            </button>
          </Form>
          {created ? (
            <SecretsShownOnce
              intro={
                <>
                  Webhook added for <strong>{WEBHOOK_EVENT_LABELS[created.event]}</strong>. Copy its signing secret now;
                  it is not shown again:
                </>
              }
              rows={[{ id: "webhook-secret", label: "Signing secret", value: created.secret }]}
            />
          ) : null}
        </Panel>

        <Panel id="webhooks-heading" title="Your webhooks">
          {webhooks.length === 0 ? (
            <p className="text-sm">No webhook yet.</p>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {webhooks.map((hook) => (
                <li key={hook.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-medium">{WEBHOOK_EVENT_LABELS[hook.event]}</p>
                    <p className="text-sm break-all">{hook.url}</p>
                    <p className="text-sm [overflow-wrap:anywhere] text-slate-600 dark:text-slate-400">
                      {lastCallSentence(hook.lastDelivery)}
                    </p>
                  </div>
                  <Form method="post" action="/admin/settings/webhooks/remove">
                    <input type="hidden" name="id" value={hook.id} />
                    <button
                      type="submit"
                      disabled={busy}
                      className={buttonStyles.secondary}
                      aria-label={`Remove the webhook calling ${hook.url}`}
                    >
                      Remove
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}
