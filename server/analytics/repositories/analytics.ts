import { type Kysely, sql, type Transaction } from "kysely";
import { addDeltas, countDelta, type DailyDelta, type Delta, type HourlyDelta } from "../delta.ts";
import type { Database } from "../../kernel/db/schema.ts";

/**
 * The analytics' writes (docs/decisions/0016-analytics.md): raw events in batches, the day's
 * salt, the incremental rollups and the purge. The dashboard's reads live in analytics-reports.ts.
 */

export type AnalyticsEventRow = Omit<Database["analytics_events"], "id">;

/** One multi-row INSERT per call; 18 columns × 500 rows stays under SQLite's 32,766 variables. */
export const EVENT_BATCH_ROWS = 500;

export async function insertEvents(db: Kysely<Database>, rows: readonly AnalyticsEventRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += EVENT_BATCH_ROWS) {
    await db
      .insertInto("analytics_events")
      .values(rows.slice(start, start + EVENT_BATCH_ROWS))
      .execute();
  }
}

export interface FeedFetchRow {
  day: string;
  fetcher: string;
  fetcher_key: string;
  subscribers: number | null;
}

/** One row per fetcher a day; the count it states last is the one kept. */
export async function upsertFeedFetches(db: Kysely<Database>, rows: readonly FeedFetchRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += EVENT_BATCH_ROWS) {
    await db
      .insertInto("analytics_feed_fetches")
      .values(rows.slice(start, start + EVENT_BATCH_ROWS))
      .onConflict((conflict) =>
        conflict.columns(["day", "fetcher", "fetcher_key"]).doUpdateSet((eb) => ({
          subscribers: eb.fn.coalesce(eb.ref("excluded.subscribers"), eb.ref("analytics_feed_fetches.subscribers")),
        })),
      )
      .execute();
  }
}

/**
 * The salt of `day`, made by whichever server asks first: the insert does nothing when another
 * server's row is there, and the read returns the row that won.
 */
export async function ensureSalt(db: Kysely<Database>, day: string, candidate: string): Promise<string> {
  await db
    .insertInto("analytics_salts")
    .values({ day, salt: candidate })
    .onConflict((conflict) => conflict.column("day").doNothing())
    .execute();
  const row = await db.selectFrom("analytics_salts").select("salt").where("day", "=", day).executeTakeFirstOrThrow();
  return row.salt;
}

/** Forgets every salt of a day before `today`: from then on that day's keys cannot be made again. */
export async function deleteSaltsBefore(db: Kysely<Database>, today: string): Promise<number> {
  const result = await db.deleteFrom("analytics_salts").where("day", "<", today).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Raw events and feed fetches older than the retention; the rollups stay. */
export async function purgeRawBefore(
  db: Kysely<Database>,
  { occurredBefore, dayBefore }: { occurredBefore: string; dayBefore: string },
): Promise<{ events: number; feedFetches: number }> {
  const events = await db.deleteFrom("analytics_events").where("occurred_at", "<", occurredBefore).executeTakeFirst();
  const feedFetches = await db.deleteFrom("analytics_feed_fetches").where("day", "<", dayBefore).executeTakeFirst();
  return { events: Number(events.numDeletedRows), feedFetches: Number(feedFetches.numDeletedRows) };
}

/** Events read at a time: a long tail (a server stopped for a while) stays within a few megabytes. */
const DELTA_CHUNK = 5000;

const COUNTED_COLUMNS = [
  "id",
  "day",
  "hour",
  "kind",
  "path",
  "visitor_key",
  "source",
  "utm_campaign",
  "browser",
  "os",
  "device",
  "screen",
  "country",
] as const;

/**
 * What the events with `afterId < id <= throughId` (no bound: all of them) add to rollups that
 * hold the events up to `afterId` (server/analytics/delta.ts). Read a chunk at a time: the chunk,
 * then the earlier events of that day of its visitors, through the (day, visitor_key) index.
 */
async function readDelta(db: Kysely<Database>, { afterId, throughId }: { afterId: number; throughId?: number }) {
  let delta: Delta = { daily: [], hourly: [] };
  for (let from = afterId; ;) {
    let chunk = db
      .selectFrom("analytics_events")
      .select(COUNTED_COLUMNS)
      .where("id", ">", from)
      .orderBy("id")
      .limit(DELTA_CHUNK);
    if (throughId !== undefined) chunk = chunk.where("id", "<=", throughId);
    const events = await chunk.execute();
    if (events.length === 0) return delta;
    const last = Number(events.at(-1)?.id);
    const earlier = await db
      .selectFrom((eb) =>
        eb
          .selectFrom("analytics_events")
          .select(["day", "visitor_key"])
          .distinct()
          .where("id", ">", from)
          .where("id", "<=", last)
          .as("visitors"),
      )
      .innerJoin("analytics_events as e", (join) =>
        join.onRef("e.day", "=", "visitors.day").onRef("e.visitor_key", "=", "visitors.visitor_key"),
      )
      .select(COUNTED_COLUMNS.map((name) => `e.${name}` as const))
      .where("e.id", "<=", from)
      .execute();
    delta = addDeltas(delta, countDelta(events, earlier));
    if (events.length < DELTA_CHUNK) return delta;
    from = last;
  }
}

const ROLLUP_NAME = "events";

export interface RollupTail {
  daily: DailyDelta[];
  hourly: HourlyDelta[];
}

/**
 * What the events not yet rolled up add to the rollups, by the rule the rollup pass itself uses:
 * adding these rows to analytics_daily and analytics_hourly gives exact figures. Read-only; the
 * tail is the minute or two since the last pass, and each report keeps the days it needs.
 */
export async function readRollupTail(db: Kysely<Database>): Promise<RollupTail> {
  return readDelta(db, { afterId: await readRollupWatermark(db) });
}

/** The rollups hold exactly the events with `id <= through_id`. */
export async function readRollupWatermark(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("analytics_rollup_state")
    .select("through_id")
    .where("name", "=", ROLLUP_NAME)
    .executeTakeFirst();
  return Number(row?.through_id ?? 0);
}

/**
 * One rollup pass. It adds the events up to the highest id the previous pass saw, if that pass
 * is at least `settleMs` old: an id handed out then belongs to an insert that has committed
 * since, so a batch another server was still writing is never skipped. The state row is the
 * claim: a pass that finds it moved by another server adds nothing.
 */
export async function rollUpEvents(
  db: Kysely<Database>,
  { now, settleMs }: { now: Date; settleMs: number },
): Promise<{ throughId: number; events: number }> {
  await db
    .insertInto("analytics_rollup_state")
    .values({ name: ROLLUP_NAME, through_id: 0, seen_id: 0, seen_at: new Date(0).toISOString() })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const state = await db
    .selectFrom("analytics_rollup_state")
    .selectAll()
    .where("name", "=", ROLLUP_NAME)
    .executeTakeFirstOrThrow();
  const previousThrough = Number(state.through_id);
  if (Date.parse(state.seen_at) > now.getTime() - settleMs) return { throughId: previousThrough, events: 0 };
  const throughId = Math.max(previousThrough, Number(state.seen_id));
  // Counted before the transaction, which then only claims and adds: SQLite's one connection
  // (and its write lock) is held for the few upserts, not for reading a minute of events.
  const delta = throughId > previousThrough ? await readDelta(db, { afterId: previousThrough, throughId }) : undefined;
  const max = await db
    .selectFrom("analytics_events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("analytics_rollup_state")
      .set({ through_id: throughId, seen_id: Number(max?.id ?? 0), seen_at: now.toISOString() })
      .where("name", "=", ROLLUP_NAME)
      .where("through_id", "=", previousThrough)
      .where("seen_id", "=", Number(state.seen_id))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0 || !delta) return { throughId: previousThrough, events: 0 };
    const events = delta.daily
      .filter((row) => row.dimension === "total" || row.dimension === "not_found")
      .reduce((sum, row) => sum + row.views, 0);
    await addDaily(trx, delta.daily);
    await addMonthly(trx, delta.daily);
    await addHourly(trx, delta.hourly);
    return { throughId, events };
  });
}

async function addDaily(trx: Transaction<Database>, rows: DailyDelta[]): Promise<void> {
  for (let start = 0; start < rows.length; start += EVENT_BATCH_ROWS) {
    await trx
      .insertInto("analytics_daily")
      .values(rows.slice(start, start + EVENT_BATCH_ROWS))
      .onConflict((conflict) =>
        conflict.columns(["day", "dimension", "value"]).doUpdateSet((eb) => ({
          views: eb(eb.ref("analytics_daily.views"), "+", eb.ref("excluded.views")),
          visitors: eb(eb.ref("analytics_daily.visitors"), "+", eb.ref("excluded.visitors")),
        })),
      )
      .execute();
  }
}

/** The same delta per month: a month's visitors are the sum of its days'. */
async function addMonthly(trx: Transaction<Database>, rows: DailyDelta[]): Promise<void> {
  const months = new Map<
    string,
    { month: string; dimension: string; value: string; views: number; visitors: number }
  >();
  for (const row of rows) {
    const month = row.day.slice(0, 7);
    const key = `${month}\n${row.dimension}\n${row.value}`;
    const sum = months.get(key) ?? { month, dimension: row.dimension, value: row.value, views: 0, visitors: 0 };
    sum.views += row.views;
    sum.visitors += row.visitors;
    months.set(key, sum);
  }
  const values = [...months.values()];
  for (let start = 0; start < values.length; start += EVENT_BATCH_ROWS) {
    await trx
      .insertInto("analytics_monthly")
      .values(values.slice(start, start + EVENT_BATCH_ROWS))
      .onConflict((conflict) =>
        conflict.columns(["dimension", "month", "value"]).doUpdateSet((eb) => ({
          views: eb(eb.ref("analytics_monthly.views"), "+", eb.ref("excluded.views")),
          visitors: eb(eb.ref("analytics_monthly.visitors"), "+", eb.ref("excluded.visitors")),
        })),
      )
      .execute();
  }
}

async function addHourly(trx: Transaction<Database>, rows: HourlyDelta[]): Promise<void> {
  for (let start = 0; start < rows.length; start += EVENT_BATCH_ROWS) {
    await trx
      .insertInto("analytics_hourly")
      .values(rows.slice(start, start + EVENT_BATCH_ROWS))
      .onConflict((conflict) =>
        conflict.column("hour").doUpdateSet((eb) => ({
          views: eb(eb.ref("analytics_hourly.views"), "+", eb.ref("excluded.views")),
          visitors: eb(eb.ref("analytics_hourly.visitors"), "+", eb.ref("excluded.visitors")),
        })),
      )
      .execute();
  }
}

/**
 * Recounts the feed fetchers of the days from `fromDay`: distinct fetchers, and the subscribers
 * they state (the largest one) plus one for each fetcher that states none.
 */
export async function rollUpFeedFetches(db: Kysely<Database>, fromDay: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("analytics_feed_daily").where("day", ">=", fromDay).execute();
    await trx
      .insertInto("analytics_feed_daily")
      .columns(["day", "fetcher", "fetchers", "subscribers"])
      .expression((eb) =>
        eb
          .selectFrom("analytics_feed_fetches")
          .select((inner) => [
            "day",
            "fetcher",
            inner.fn.countAll<number>().as("fetchers"),
            sql<number>`coalesce(max(subscribers), 0) + count(*) - count(subscribers)`.as("subscribers"),
          ])
          .where("day", ">=", fromDay)
          .groupBy(["day", "fetcher"]),
      )
      .execute();
  });
}
