// Webhooks and their deliveries (migration 0038, docs/decisions/0035-webhooks.md). The deliveries
// are a durable queue: claimed, leased and released by server/kernel/durable-queue.ts.
import type { Kysely, Selectable } from "kysely";
import type { WebhookEvent } from "#domain/webhooks.ts";
import type { Database, WebhookDeliveriesTable } from "../../kernel/db/schema.ts";
import type { Db } from "../../kernel/rows.ts";

export interface WebhookRow {
  id: string;
  event: WebhookEvent;
  url: string;
  secret: string;
  createdAt: string;
}

export async function insertWebhook(db: Kysely<Database>, row: WebhookRow): Promise<void> {
  await db
    .insertInto("webhooks")
    .values({ id: row.id, event: row.event, url: row.url, secret: row.secret, created_at: row.createdAt })
    .execute();
}

/** False when there was no such webhook. Its deliveries go with it. */
export async function deleteWebhook(db: Kysely<Database>, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom("webhooks").where("id", "=", id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

export async function countWebhooks(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("webhooks")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every webhook, oldest first, with its newest delivery (null before its first). */
export async function listWebhooks(db: Kysely<Database>) {
  const hooks = await db
    .selectFrom("webhooks")
    .select(["id", "event", "url", "created_at"])
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  if (hooks.length === 0) return [];
  const newest = await db
    .selectFrom("webhook_deliveries")
    .select(["webhook_id", "state", "attempts", "last_error", "created_at", "finished_at"])
    .where("id", "in", (eb) =>
      eb
        .selectFrom("webhook_deliveries")
        .select((inner) => inner.fn.max("id").as("id"))
        .groupBy("webhook_id"),
    )
    .execute();
  const byHook = new Map(newest.map((row) => [row.webhook_id, row]));
  return hooks.map((hook) => ({ ...hook, lastDelivery: byHook.get(hook.id) ?? null }));
}

/**
 * The events some webhook is told of, as a settings record (server/kernel/settings-store.ts):
 * its text is its version, as `keyedSettingsRecord`'s is, so each server caches it and learns of
 * another's change within a second. Written only by adding or removing a webhook.
 */
export function webhookEventsRecord(db: Kysely<Database>) {
  // The version asked is the text itself: a read right after it answers what it read.
  let justRead: string | undefined;
  const readText = async () => {
    const rows = await db.selectFrom("webhooks").select("event").distinct().orderBy("event").execute();
    justRead = JSON.stringify({ events: rows.map((row) => row.event) });
    return justRead;
  };
  return {
    version: readText,
    async read(): Promise<{ text: string; version: string }> {
      const text = justRead ?? (await readText());
      justRead = undefined;
      return { text, version: text };
    },
    /** The webhooks themselves are the record: what is stored is what they say now. */
    write: readText,
  };
}

/** The webhooks told of `event`: whom a change queues a delivery for. */
export async function findWebhookIdsFor(db: Db, event: WebhookEvent): Promise<string[]> {
  const rows = await db.selectFrom("webhooks").select("id").where("event", "=", event).execute();
  return rows.map((row) => row.id);
}

/** Queues one delivery per webhook, with its body, in the caller's transaction (the change's). */
export async function insertDeliveries(
  db: Db,
  deliveries: readonly { webhookId: string; event: WebhookEvent; body: string }[],
  at: string,
): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .insertInto("webhook_deliveries")
    .values(
      deliveries.map((delivery) => ({
        webhook_id: delivery.webhookId,
        event: delivery.event,
        body: delivery.body,
        state: "queued" as const,
        next_attempt_at: at,
        created_at: at,
      })),
    )
    .execute();
}

/** The URL and sealed secret of the webhooks claimed deliveries go to; one removed meanwhile is missing. */
export async function findTargets(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, { url: string; secret: string }>();
  const rows = await db.selectFrom("webhooks").select(["id", "url", "secret"]).where("id", "in", ids).execute();
  return new Map(rows.map((row) => [row.id, { url: row.url, secret: row.secret }]));
}

export type ClaimedDelivery = Selectable<WebhookDeliveriesTable>;

/** A claimed delivery's end: delivered, or given up on with the reason; the answer kept as its status and an excerpt. */
export async function finishDelivery(
  db: Kysely<Database>,
  id: number,
  outcome: {
    state: "delivered" | "failed";
    at: string;
    error: string | null;
    status: number | null;
    excerpt: string | null;
  },
): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set({
      state: outcome.state,
      claimed_until: null,
      last_error: outcome.error,
      response_status: outcome.status,
      response_excerpt: outcome.excerpt,
      finished_at: outcome.at,
    })
    .where("id", "=", id)
    .where("state", "=", "claimed")
    .execute();
}

/**
 * Deletes deliveries that ended (delivered or failed) before `before`, keeping each webhook's
 * newest, which its "last call" line reads; a delivery still queued or claimed always stays.
 */
export async function deleteFinishedDeliveries(db: Kysely<Database>, before: string): Promise<number> {
  const result = await db
    .deleteFrom("webhook_deliveries")
    .where("state", "in", ["delivered", "failed"])
    .where("finished_at", "<", before)
    .where("id", "not in", (eb) =>
      eb
        .selectFrom("webhook_deliveries as newest")
        .select((inner) => inner.fn.max("newest.id").as("id"))
        .groupBy("newest.webhook_id"),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every delivery of a webhook, oldest first (tests, and what the owner could be shown of one). */
export async function listDeliveries(db: Kysely<Database>, webhookId: string) {
  return db
    .selectFrom("webhook_deliveries")
    .select(["id", "event", "state", "attempts", "last_error", "response_status", "response_excerpt"])
    .where("webhook_id", "=", webhookId)
    .orderBy("id")
    .execute();
}
