// The email outbox (docs/decisions/0014-newsletter-outbox.md): sends, and one delivery row per recipient.
import { type Kysely, type Selectable, sql } from "kysely";
import type { Database, EmailDeliveriesTable, EmailSendsTable } from "../../kernel/db/schema.ts";
import { retryLater } from "../../kernel/repositories/durable-queue.ts";
import { type Db, inTransaction } from "../../kernel/rows.ts";

export interface SendContent {
  subject: string;
  html: string;
  text: string;
}

export interface SendProgress {
  id: string;
  kind: EmailSendsTable["kind"];
  postId: string | null;
  state: EmailSendsTable["state"];
  /** Recipients: those queued, less any who left before their email went out. */
  total: number;
  sent: number;
  failed: number;
  createdAt: string;
  finishedAt: string | null;
}

/** A delivery a worker holds until `claimed_until`. */
export interface ClaimedDelivery {
  id: number;
  sendId: string;
  subscriberId: string | null;
  /** A reply email's: the comment whose reader it goes to, whose address is read at send time (`to` is empty). */
  commentId: string | null;
  to: string;
  /** Claims so far, this one included. */
  attempts: number;
}

export interface ClaimedSend extends SendContent {
  id: string;
  kind: EmailSendsTable["kind"];
  state: EmailSendsTable["state"];
}

/** What became of the rest of a claimed batch, recorded in one transaction; sent messages are recorded as SMTP takes them. */
export interface BatchOutcome {
  at: string;
  /** Given up on: a permanent refusal, or a temporary one tried too often. */
  failed: { delivery: ClaimedDelivery; error: string }[];
  retry: { delivery: ClaimedDelivery; error: string; nextAttemptAt: string }[];
  /** Post deliveries whose subscriber left (unsubscribed, bounced, removed) before their turn. */
  dropped: ClaimedDelivery[];
  /** Subscribers whose address the server refused permanently. */
  bounced: string[];
}

/** After this many permanent refusals a subscriber gets no more email. */
export const BOUNCES_BEFORE_BOUNCED = 3;

/**
 * Queues one email, to an address or to the reader who left one on `commentId` (whose address
 * stays sealed until the worker sends it). In the caller's transaction when given one.
 */
export async function insertSingleSend(
  db: Db,
  {
    id,
    to,
    content,
    at,
  }: { id: string; to: { address: string } | { commentId: string }; content: SendContent; at: string },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("email_sends")
      .values({ id, kind: "single", post_id: null, state: "sending", ...content, total: 1, created_at: at })
      .execute();
    await trx
      .insertInto("email_deliveries")
      .values({
        send_id: id,
        subscriber_id: null,
        ...("address" in to ? { to_address: to.address } : { to_address: "", comment_id: to.commentId }),
        state: "queued",
        next_attempt_at: at,
      })
      .execute();
  });
}

/**
 * Queues a post's send to every active subscriber, in one transaction and one statement for
 * the recipients; undefined when the post already has a send (a post is emailed once in its life).
 */
export async function insertPostSend(
  db: Db,
  { id, postId, content, at }: { id: string; postId: string; content: SendContent; at: string },
): Promise<{ total: number } | undefined> {
  return inTransaction(db, async (trx) => {
    const created = await trx
      .insertInto("email_sends")
      .values({ id, kind: "post", post_id: postId, state: "sending", ...content, created_at: at })
      .onConflict((oc) => oc.column("post_id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!created) return undefined;
    const queued = await trx
      .insertInto("email_deliveries")
      .columns(["send_id", "subscriber_id", "to_address", "state", "next_attempt_at"])
      .expression(
        trx
          .selectFrom("subscribers")
          .select([
            sql<string>`${id}`.as("send_id"),
            "id",
            "email",
            sql<string>`'queued'`.as("state"),
            sql<string>`${at}`.as("next_attempt_at"),
          ])
          .where("state", "=", "active")
          .orderBy("created_at")
          .orderBy("id"),
      )
      .executeTakeFirst();
    const total = Number(queued.numInsertedOrUpdatedRows ?? 0);
    await trx
      .updateTable("email_sends")
      .set(total === 0 ? { total, state: "done", finished_at: at } : { total })
      .where("id", "=", id)
      .execute();
    return { total };
  });
}

/** Stops a send: what is not yet sent will not be; a message already with SMTP still counts. */
export async function cancelSend(db: Kysely<Database>, id: string, at: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const cancelled = await trx
      .updateTable("email_sends")
      .set({ state: "cancelled", finished_at: at })
      .where("id", "=", id)
      .where("state", "=", "sending")
      .executeTakeFirst();
    if (Number(cancelled.numUpdatedRows) === 0) return false;
    await trx
      .updateTable("email_deliveries")
      .set({ state: "cancelled", claimed_until: null })
      .where("send_id", "=", id)
      .where("state", "in", ["queued", "claimed"])
      .execute();
    return true;
  });
}

export async function findSendProgress(db: Kysely<Database>, id: string): Promise<SendProgress | undefined> {
  const row = await db.selectFrom("email_sends").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toProgress(row) : undefined;
}

export function toProgress(row: Selectable<EmailSendsTable>): SendProgress {
  return {
    id: row.id,
    kind: row.kind,
    postId: row.post_id,
    state: row.state,
    total: Number(row.total),
    sent: Number(row.sent),
    failed: Number(row.failed),
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** A claimed row of `email_deliveries` (server/kernel/durable-queue.ts `claim`) as the outbox reads it. */
export function toClaimedDelivery(row: Selectable<EmailDeliveriesTable>): ClaimedDelivery {
  return {
    id: Number(row.id),
    sendId: row.send_id,
    subscriberId: row.subscriber_id,
    commentId: row.comment_id,
    to: row.to_address,
    attempts: Number(row.attempts),
  };
}

export async function findClaimedSends(db: Kysely<Database>, ids: string[]): Promise<Map<string, ClaimedSend>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("email_sends")
    .select(["id", "kind", "state", "subject", "html", "text"])
    .where("id", "in", ids)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Of these subscribers, those still active: only they get a post. */
export async function findActiveSubscriberIds(db: Kysely<Database>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("subscribers")
    .select("id")
    .where("id", "in", ids)
    .where("state", "=", "active")
    .execute();
  return new Set(rows.map((row) => row.id));
}

type SendCounts = Map<string, { sent: number; failed: number; dropped: number }>;

function countInto(counts: SendCounts, sendIds: string[], field: "sent" | "failed" | "dropped"): void {
  for (const sendId of sendIds) {
    const entry = counts.get(sendId) ?? { sent: 0, failed: 0, dropped: 0 };
    entry[field] += 1;
    counts.set(sendId, entry);
  }
}

/**
 * Records messages SMTP accepted, in one transaction: their rows are sent and their sends count
 * them. Called as SMTP takes each message (several that arrive during one write share the next),
 * so a crash repeats only the messages SMTP held at that instant. A row is counted only by the
 * update that moves it out of the queue, so a delivery two workers sent (a lease that ran out
 * mid-send) is counted once.
 */
export async function recordSent(db: Kysely<Database>, deliveries: ClaimedDelivery[], at: string): Promise<void> {
  if (deliveries.length === 0) return;
  await inTransaction(db, async (trx) => {
    const sent = await trx
      .updateTable("email_deliveries")
      .set({ state: "sent", sent_at: at, claimed_until: null, last_error: null })
      .where(
        "id",
        "in",
        deliveries.map((delivery) => delivery.id),
      )
      // A cancelled row whose message was already with SMTP went out all the same.
      .where("state", "in", ["claimed", "queued", "cancelled"])
      .returning("send_id")
      .execute();
    const counts: SendCounts = new Map();
    countInto(
      counts,
      sent.map((row) => row.send_id),
      "sent",
    );
    await updateSendCounters(trx, counts, at);
  });
}

/**
 * Records the rest of a batch in one transaction: failures, retries, departed subscribers,
 * bounces, and the sends' counters, on the same rule as `recordSent`. A send is done when every
 * recipient is counted, sent or failed.
 */
export async function recordBatch(db: Kysely<Database>, outcome: BatchOutcome): Promise<void> {
  const { at, failed, retry, dropped } = outcome;
  if (failed.length + retry.length + dropped.length === 0) return;
  await inTransaction(db, async (trx) => {
    const counts: SendCounts = new Map();
    const count = (sendIds: string[], field: "failed" | "dropped") => countInto(counts, sendIds, field);
    for (const { delivery, error } of outcome.failed) {
      const failed = await finishDelivery(trx, delivery.id, { state: "failed", last_error: error });
      if (failed) count([delivery.sendId], "failed");
    }
    for (const delivery of outcome.dropped) {
      const dropped = await finishDelivery(trx, delivery.id, { state: "cancelled" });
      if (dropped) count([delivery.sendId], "dropped");
    }
    for (const { delivery, error, nextAttemptAt } of outcome.retry) {
      await retryLater(trx, "email_deliveries", delivery.id, { nextAttemptAt, error, alsoQueued: true });
    }
    if (outcome.bounced.length > 0) {
      await trx
        .updateTable("subscribers")
        .set({
          bounces: sql`bounces + 1`,
          state: sql`case when bounces + 1 >= ${BOUNCES_BEFORE_BOUNCED} then 'bounced' else state end`,
        })
        .where("id", "in", outcome.bounced)
        .execute();
    }
    await updateSendCounters(trx, counts, at);
  });
}

async function updateSendCounters(trx: Db, counts: SendCounts, at: string): Promise<void> {
  for (const [sendId, { sent, failed, dropped }] of counts) {
    await trx
      .updateTable("email_sends")
      .set({
        sent: sql`sent + ${sent}`,
        failed: sql`failed + ${failed}`,
        total: sql`total - ${dropped}`,
        state: sql`case when state = 'sending' and sent + failed + ${sent + failed} >= total - ${dropped} then 'done' else state end`,
        finished_at: sql`case when state = 'sending' and sent + failed + ${sent + failed} >= total - ${dropped} then ${at} else finished_at end`,
      })
      .where("id", "=", sendId)
      .execute();
  }
}

async function finishDelivery(
  trx: Db,
  id: number,
  values: { state: "failed" | "cancelled"; last_error?: string },
): Promise<boolean> {
  const result = await trx
    .updateTable("email_deliveries")
    .set({ ...values, claimed_until: null })
    .where("id", "=", id)
    .where("state", "in", ["claimed", "queued"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
