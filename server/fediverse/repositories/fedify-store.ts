// Fedify's key–value store and message queue (migration 0018, docs/decisions/0015-fediverse.md).
// Keys and values arrive here as JSON text; server/fediverse/kv-store.ts and message-queue.ts
// turn Fedify's values into it and back.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../../kernel/db/connect.ts";
import type { Database } from "../../kernel/db/schema.ts";

function notExpired(at: string) {
  return sql<boolean>`(expires_at is null or expires_at > ${at})`;
}

export async function readKv(db: Kysely<Database>, key: string, at: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("fedify_kv")
    .select("value")
    .where("key", "=", key)
    .where(notExpired(at))
    .executeTakeFirst();
  return row?.value;
}

export async function writeKv(
  db: Kysely<Database>,
  { key, value, expiresAt }: { key: string; value: string; expiresAt: string | null },
): Promise<void> {
  await db
    .insertInto("fedify_kv")
    .values({ key, value, expires_at: expiresAt })
    .onConflict((conflict) => {
      const update = conflict.column("key").doUpdateSet({ value, expires_at: expiresAt });
      // Fedify stores some entries again on every delivery: one unchanged, and kept for good,
      // writes nothing. A time to live is always written, as it starts again.
      return expiresAt === null
        ? update.where((eb) => eb.or([eb("fedify_kv.value", "<>", value), eb("fedify_kv.expires_at", "is not", null)]))
        : update;
    })
    .execute();
}

export async function deleteKv(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom("fedify_kv").where("key", "=", key).execute();
}

/**
 * Sets `key` to `value` only while it still holds `expected` (undefined: holds nothing), in one
 * statement, so two servers racing on the same key never both win.
 */
export async function swapKv(
  db: Kysely<Database>,
  {
    key,
    expected,
    value,
    expiresAt,
    at,
  }: {
    key: string;
    expected: string | undefined;
    value: string;
    expiresAt: string | null;
    at: string;
  },
): Promise<boolean> {
  if (expected === undefined) {
    // An expired entry counts as nothing: it goes first, or the insert would find it in the way.
    await db.deleteFrom("fedify_kv").where("key", "=", key).where("expires_at", "<=", at).execute();
    const inserted = await db
      .insertInto("fedify_kv")
      .values({ key, value, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column("key").doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const updated = await db
    .updateTable("fedify_kv")
    .set({ value, expires_at: expiresAt })
    .where("key", "=", key)
    .where("value", "=", expected)
    .where(notExpired(at))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/**
 * Entries whose key array starts with the prefix's, as JSON text: `["a","b"]` lies under `["a"`.
 * `substr` rather than LIKE, whose case rules and wildcards differ between the two databases.
 */
export async function listKv(
  db: Kysely<Database>,
  { prefix, at }: { prefix: string | undefined; at: string },
): Promise<{ key: string; value: string }[]> {
  let query = db.selectFrom("fedify_kv").select(["key", "value"]).where(notExpired(at));
  if (prefix !== undefined) {
    const open = prefix.slice(0, -1);
    query = query.where((eb) =>
      eb.or([eb("key", "=", prefix), eb(sql`substr(key, 1, ${open.length + 1})`, "=", `${open},`)]),
    );
  }
  return query.execute();
}

export async function purgeExpiredKv(db: Kysely<Database>, at: string): Promise<number> {
  const deleted = await db.deleteFrom("fedify_kv").where("expires_at", "<=", at).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

export interface QueuedMessage {
  id: number;
  payload: string;
}

export async function insertMessages(
  db: Kysely<Database>,
  messages: readonly { payload: string; orderingKey: string | null; availableAt: string; at: string }[],
): Promise<void> {
  if (messages.length === 0) return;
  await db
    .insertInto("fedify_messages")
    .values(
      messages.map(({ payload, orderingKey, availableAt, at }) => ({
        payload,
        ordering_key: orderingKey,
        available_at: availableAt,
        created_at: at,
      })),
    )
    .execute();
}

/**
 * Leases up to `limit` messages that are due, oldest first, until `leaseUntil`. A message with an
 * ordering key waits while an older one of the same key is still queued or held. On PostgreSQL,
 * FOR UPDATE SKIP LOCKED lets servers claim side by side without ever taking the same message;
 * SQLite's write lock makes the statement one transaction on its own.
 */
export async function claimMessages(
  db: Kysely<Database>,
  dialect: Dialect,
  { at, leaseUntil, limit }: { at: string; leaseUntil: string; limit: number },
): Promise<QueuedMessage[]> {
  const free = sql<boolean>`(claimed_until is null or claimed_until < ${at})`;
  const rows = await db
    // Materialized, so the batch is chosen once (as in server/newsletter/repositories/email-outbox.ts).
    .with(
      (cte) => cte("due").materialized(),
      (qb) =>
        qb
          .selectFrom("fedify_messages as m")
          .select("m.id")
          .where("m.available_at", "<=", at)
          .where(sql<boolean>`(m.claimed_until is null or m.claimed_until < ${at})`)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("fedify_messages as earlier")
                  .select("earlier.id")
                  .whereRef("earlier.ordering_key", "=", "m.ordering_key")
                  .whereRef("earlier.id", "<", "m.id"),
              ),
            ),
          )
          .orderBy("m.id")
          .limit(limit)
          .$if(dialect === "postgres", (query) => query.forUpdate("m").skipLocked()),
    )
    .updateTable("fedify_messages")
    .set({ claimed_until: leaseUntil })
    // Checked again on the row itself, which PostgreSQL re-reads if another claim changed it first.
    .where(free)
    .where("id", "in", (eb) => eb.selectFrom("due").select("id"))
    .returning(["id", "payload"])
    .execute();
  return rows.map((row) => ({ id: Number(row.id), payload: row.payload })).sort((a, b) => a.id - b.id);
}

/** Keeps a message held while its handler still runs. */
export async function extendClaims(db: Kysely<Database>, ids: readonly number[], leaseUntil: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("fedify_messages").set({ claimed_until: leaseUntil }).where("id", "in", ids).execute();
}

export async function deleteMessages(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("fedify_messages").where("id", "in", ids).execute();
}

/**
 * Frees held messages: those whose lease ran out before `at`, or every one (`at` undefined) on a
 * database only this process uses, whose earlier run stopped while holding them.
 */
export async function releaseMessageClaims(db: Kysely<Database>, at: string | undefined): Promise<number> {
  let query = db.updateTable("fedify_messages").set({ claimed_until: null }).where("claimed_until", "is not", null);
  if (at !== undefined) query = query.where("claimed_until", "<", at);
  const updated = await query.executeTakeFirst();
  return Number(updated.numUpdatedRows);
}

export async function countQueuedMessages(
  db: Kysely<Database>,
  at: string,
): Promise<{ queued: number; ready: number; delayed: number }> {
  const row = await db
    .selectFrom("fedify_messages")
    .select([
      sql<number>`count(*)`.as("queued"),
      sql<number>`sum(case when available_at <= ${at} then 1 else 0 end)`.as("ready"),
    ])
    .where(sql<boolean>`(claimed_until is null or claimed_until < ${at})`)
    .executeTakeFirstOrThrow();
  const queued = Number(row.queued);
  const ready = Number(row.ready ?? 0);
  return { queued, ready, delayed: queued - ready };
}

/** The actor's key pairs as stored (JSON), or undefined before the first start made them. */
export async function readKeyPairs(db: Kysely<Database>, actor: string): Promise<string | undefined> {
  const row = await db.selectFrom("fediverse_keys").select("key_pairs").where("actor", "=", actor).executeTakeFirst();
  return row?.key_pairs;
}

/**
 * Stores the actor's key pairs unless some are there already, and returns whichever are stored:
 * two servers starting at once both end up with the first one's keys.
 */
export async function keepFirstKeyPairs(db: Kysely<Database>, actor: string, keyPairs: string): Promise<string> {
  await db
    .insertInto("fediverse_keys")
    .values({ actor, key_pairs: keyPairs })
    .onConflict((conflict) => conflict.column("actor").doNothing())
    .execute();
  return (await readKeyPairs(db, actor)) ?? keyPairs;
}
