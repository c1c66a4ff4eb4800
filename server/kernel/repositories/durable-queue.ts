// The statements of every durable queue (server/kernel/durable-queue.ts): a table of rows each
// worked once, claimed with a lease by whichever app server looks first. Each queue table has
// `id` (autoincrement or bigserial: the order of claim), `state` ('queued' and 'claimed' among
// its own), `next_attempt_at`, `claimed_until`, `attempts` and `last_error`.
import type { Generated, Kysely, Selectable } from "kysely";
import type { Dialect } from "../db/connect.ts";
import type { Database } from "../db/schema.ts";
import type { Db } from "../rows.ts";

/** The tables that are durable queues: the email outbox's deliveries, Webmention's jobs, webhook deliveries. */
export type QueueTable = "email_deliveries" | "webmention_jobs" | "webhook_deliveries";

/** A queue row as these statements see it: only the columns every queue shares. */
interface QueueRow {
  id: Generated<number>;
  state: string;
  next_attempt_at: string;
  claimed_until: string | null;
  attempts: number;
  last_error: string | null;
}

/** One queue table under the shared columns: the statements below are the same for each. */
function asQueue(db: Db, table: QueueTable) {
  return { db: db as unknown as Kysely<Record<"queue", QueueRow>>, table: table as unknown as "queue" };
}

/**
 * Claims up to `limit` due rows, oldest first, until `leaseUntil`, in one statement, and returns
 * them whole, in the order of their ids. PostgreSQL skips rows another server is claiming at
 * that instant (`for update skip locked`), so servers sharing a queue never hold the same row;
 * SQLite's write lock makes the statement one immediate transaction on its own.
 */
export async function claimDue<T extends QueueTable>(
  db: Kysely<Database>,
  dialect: Dialect,
  queueTable: T,
  { at, leaseUntil, limit }: { at: string; leaseUntil: string; limit: number },
): Promise<Selectable<Database[T]>[]> {
  const { db: queue, table } = asQueue(db, queueTable);
  const rows = await queue
    // Materialized, so the batch is chosen once: as a subquery of the update, PostgreSQL may run
    // it again per row and claim past the limit.
    .with(
      (cte) => cte("due").materialized(),
      (qb) =>
        qb
          .selectFrom(table)
          .select("id")
          .where("state", "=", "queued")
          .where("next_attempt_at", "<=", at)
          .orderBy("next_attempt_at")
          .orderBy("id")
          .limit(limit)
          .$if(dialect === "postgres", (query) => query.forUpdate().skipLocked()),
    )
    .updateTable(table)
    .set((eb) => ({ state: "claimed", claimed_until: leaseUntil, attempts: eb("attempts", "+", 1) }))
    // Checked again on the row itself, which PostgreSQL re-reads if another claim changed it first.
    .where("state", "=", "queued")
    .where("id", "in", (eb) => eb.selectFrom("due").select("id"))
    .returningAll()
    .execute();
  return (rows as unknown as Selectable<Database[T]>[]).toSorted(
    (a, b) => Number((a as { id: number }).id) - Number((b as { id: number }).id),
  );
}

/**
 * Puts back in the queue the claims whose lease ran out: their worker died (or stalled) with
 * them. `at` undefined releases every claim, for a database only one worker uses (SQLite).
 */
export async function releaseExpiredClaims(
  db: Kysely<Database>,
  queueTable: QueueTable,
  at: string | undefined,
): Promise<number> {
  const { db: queue, table } = asQueue(db, queueTable);
  const released = await queue
    .updateTable(table)
    .set({ state: "queued", claimed_until: null })
    .where("state", "=", "claimed")
    .$if(at !== undefined, (query) => query.where("claimed_until", "<=", at!))
    .executeTakeFirst();
  return Number(released.numUpdatedRows);
}

/** Moves the lease of rows still being worked on, so a slow peer does not lose them to another worker. */
export async function extendClaims(
  db: Kysely<Database>,
  queueTable: QueueTable,
  ids: number[],
  leaseUntil: string,
): Promise<void> {
  if (ids.length === 0) return;
  const { db: queue, table } = asQueue(db, queueTable);
  await queue
    .updateTable(table)
    .set({ claimed_until: leaseUntil })
    .where("id", "in", ids)
    .where("state", "=", "claimed")
    .execute();
}

/**
 * A temporary failure: the row waits until `nextAttemptAt`, its error kept. `alsoQueued` takes a
 * row whose lease ran out meanwhile (released, not yet claimed again) too. In the caller's
 * transaction when given one.
 */
export async function retryLater(
  db: Db,
  queueTable: QueueTable,
  id: number,
  { nextAttemptAt, error, alsoQueued = false }: { nextAttemptAt: string; error: string; alsoQueued?: boolean },
): Promise<void> {
  const { db: queue, table } = asQueue(db, queueTable);
  await queue
    .updateTable(table)
    .set({ state: "queued", claimed_until: null, last_error: error, next_attempt_at: nextAttemptAt })
    .where("id", "=", id)
    .where("state", "in", alsoQueued ? ["claimed", "queued"] : ["claimed"])
    .execute();
}
