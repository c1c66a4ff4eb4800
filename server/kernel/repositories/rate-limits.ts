import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import { toIsoString } from "../rows.ts";

export interface RateLimitState {
  hits: number;
  windowStartedAt: string;
  blockedUntil: string | undefined;
}

/**
 * Counts one hit for `key` in a fixed window, atomically (one upsert), so several
 * app servers sharing the database share the count.
 */
export async function recordHit(
  db: Kysely<Database>,
  key: string,
  now: string,
  windowStartsAfter: string,
): Promise<RateLimitState> {
  const row = await db
    .insertInto("rate_limits")
    .values({ key, window_started_at: now, hits: 1, blocked_until: null })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        hits: sql`case when rate_limits.window_started_at <= ${windowStartsAfter} then 1 else rate_limits.hits + 1 end`,
        window_started_at: sql`case when rate_limits.window_started_at <= ${windowStartsAfter} then ${now} else rate_limits.window_started_at end`,
      }),
    )
    .returning(["hits", "window_started_at", "blocked_until"])
    .executeTakeFirstOrThrow();
  return {
    hits: Number(row.hits),
    windowStartedAt: toIsoString(row.window_started_at),
    blockedUntil: row.blocked_until ? toIsoString(row.blocked_until) : undefined,
  };
}

export async function findRateLimit(db: Kysely<Database>, key: string): Promise<RateLimitState | undefined> {
  const row = await db.selectFrom("rate_limits").selectAll().where("key", "=", key).executeTakeFirst();
  return row
    ? {
        hits: Number(row.hits),
        windowStartedAt: toIsoString(row.window_started_at),
        blockedUntil: row.blocked_until ? toIsoString(row.blocked_until) : undefined,
      }
    : undefined;
}

export async function blockKey(db: Kysely<Database>, key: string, until: string): Promise<void> {
  await db.updateTable("rate_limits").set({ blocked_until: until }).where("key", "=", key).execute();
}

export async function clearRateLimit(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("key", "=", key).execute();
}

/** Forgets counters whose window and lock are both over, so the table holds only live limits. */
export async function deleteStaleRateLimits(
  db: Kysely<Database>,
  windowStartedBefore: string,
  now: string,
): Promise<number> {
  const result = await db
    .deleteFrom("rate_limits")
    .where("window_started_at", "<", windowStartedBefore)
    .where((eb) => eb.or([eb("blocked_until", "is", null), eb("blocked_until", "<", now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
