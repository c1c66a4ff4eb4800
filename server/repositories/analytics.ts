import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import type { AnalyticsDimension } from "#domain/analytics.ts";
import type { Database } from "../db/schema.ts";

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

interface DimensionRule {
  kind: "view" | "not_found";
  /** The value an event gives the dimension, as SQL over the alias `e` (or `prior`). */
  value: (alias: string) => RawBuilder<string>;
  /** Events without a value (no campaign, no country) do not count in it. */
  needsValue?: true;
}

const column = (name: string) => (alias: string) => sql<string>`${sql.ref(`${alias}.${name}`)}`;

const DIMENSIONS: Record<AnalyticsDimension, DimensionRule> = {
  total: { kind: "view", value: () => sql<string>`''` },
  path: { kind: "view", value: column("path") },
  source: { kind: "view", value: (alias) => sql<string>`coalesce(${sql.ref(`${alias}.source`)}, '')` },
  campaign: { kind: "view", value: column("utm_campaign"), needsValue: true },
  browser: { kind: "view", value: column("browser") },
  os: { kind: "view", value: column("os") },
  device: { kind: "view", value: column("device") },
  screen: { kind: "view", value: column("screen") },
  country: { kind: "view", value: column("country"), needsValue: true },
  not_found: { kind: "not_found", value: column("path") },
};

/** Days to keep, both ends included; none: every day. */
export interface DayBounds {
  fromDay?: string;
  toDay?: string;
}

/**
 * Applied to the grouped rows, not in SQL: a day condition there leads SQLite to walk the
 * (day, visitor_key) index over every raw event of the range instead of the short id range.
 */
function within({ fromDay, toDay }: DayBounds, day: string): boolean {
  return (fromDay === undefined || day >= fromDay) && (toDay === undefined || day <= toDay);
}

export interface DeltaRow {
  day: string;
  value: string;
  views: number;
  /** Visitors not counted in the same day and value by the events up to `afterId`: add them to the rollup's. */
  visitors: number;
}

/**
 * Views and visitors of the events with `afterId < id <= throughId` (no bound: all of them),
 * per day and value of one dimension. A visitor counts only if no earlier event (id ≤ afterId)
 * of the same day and value carries their key, so these figures add to the rollup's for an
 * exact count; the earlier events are found through the (day, visitor_key) index.
 */
export async function aggregateEventsAfter(
  db: Kysely<Database>,
  {
    afterId,
    throughId,
    dimension,
    ...days
  }: { afterId: number; throughId?: number; dimension: AnalyticsDimension } & DayBounds,
): Promise<DeltaRow[]> {
  const rule = DIMENSIONS[dimension];
  const value = rule.value("e");
  // PostgreSQL refuses a constant in GROUP BY: the total groups by day alone. Grouping by
  // `day || ''`, which no index holds, keeps SQLite on the short id range: by `day` alone it
  // would walk the (day, visitor_key) index over every raw event to get them in day order.
  const rows = await sql<{ day: string; value: string; views: number | string; visitors: number | string }>`
    select e.day || '' as day, ${value} as value, count(*) as views,
      count(distinct case when not exists (
        select 1 from analytics_events prior
        where prior.day = e.day and prior.visitor_key = e.visitor_key and prior.id <= ${afterId}
          and prior.kind = ${rule.kind} and ${rule.value("prior")} = ${value}
      ) then e.visitor_key end) as visitors
    from analytics_events e
    where e.id > ${afterId}
      ${throughId === undefined ? sql`` : sql`and e.id <= ${throughId}`}
      and e.kind = ${rule.kind}
      ${rule.needsValue ? sql`and ${value} is not null` : sql``}
    group by e.day || ''${dimension === "total" ? sql`` : sql`, ${value}`}
  `.execute(db);
  return rows.rows
    .filter((row) => within(days, row.day))
    .map((row) => ({ ...row, views: Number(row.views), visitors: Number(row.visitors) }));
}

export interface HourDeltaRow {
  hour: string;
  views: number;
  visitors: number;
}

/** As aggregateEventsAfter, per hour of the views: the "today" chart's figures to add. */
export async function aggregateHoursAfter(
  db: Kysely<Database>,
  { afterId, throughId, ...days }: { afterId: number; throughId?: number } & DayBounds,
): Promise<HourDeltaRow[]> {
  const rows = await sql<{ hour: string; views: number | string; visitors: number | string }>`
    select e.hour as hour, count(*) as views,
      count(distinct case when not exists (
        select 1 from analytics_events prior
        where prior.day = e.day and prior.visitor_key = e.visitor_key and prior.id <= ${afterId}
          and prior.kind = 'view' and prior.hour = e.hour
      ) then e.visitor_key end) as visitors
    from analytics_events e
    where e.id > ${afterId}
      ${throughId === undefined ? sql`` : sql`and e.id <= ${throughId}`}
      and e.kind = 'view'
    group by e.hour
  `.execute(db);
  return rows.rows
    .filter((row) => within(days, row.hour.slice(0, 10)))
    .map((row) => ({ ...row, views: Number(row.views), visitors: Number(row.visitors) }));
}

const ROLLUP_NAME = "events";

export interface RollupTail {
  daily: (DeltaRow & { dimension: AnalyticsDimension })[];
  hourly: HourDeltaRow[];
}

/**
 * What the events not yet rolled up add to the rollups of the days in `bounds`, by the rule the
 * rollup pass itself uses: adding these rows to analytics_daily and analytics_hourly gives exact
 * figures. Read-only; the tail is the minute or two since the last pass.
 */
export async function readRollupTail(db: Kysely<Database>, bounds: DayBounds): Promise<RollupTail> {
  const afterId = await readRollupWatermark(db);
  const daily: RollupTail["daily"] = [];
  for (const dimension of Object.keys(DIMENSIONS) as AnalyticsDimension[]) {
    const rows = await aggregateEventsAfter(db, { afterId, dimension, ...bounds });
    daily.push(...rows.map((row) => ({ ...row, dimension })));
  }
  return { daily, hourly: await aggregateHoursAfter(db, { afterId, ...bounds }) };
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
  return db.transaction().execute(async (trx) => {
    const state = await trx
      .selectFrom("analytics_rollup_state")
      .selectAll()
      .where("name", "=", ROLLUP_NAME)
      .executeTakeFirstOrThrow();
    const previousThrough = Number(state.through_id);
    const settled = Date.parse(state.seen_at) <= now.getTime() - settleMs;
    const throughId = settled ? Math.max(previousThrough, Number(state.seen_id)) : previousThrough;
    const max = await trx
      .selectFrom("analytics_events")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst();
    const claimed = await trx
      .updateTable("analytics_rollup_state")
      .set({
        through_id: throughId,
        seen_id: settled ? Number(max?.id ?? 0) : Number(state.seen_id),
        seen_at: settled ? now.toISOString() : state.seen_at,
      })
      .where("name", "=", ROLLUP_NAME)
      .where("through_id", "=", previousThrough)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0 || throughId === previousThrough) {
      return { throughId: previousThrough, events: 0 };
    }
    const range = { afterId: previousThrough, throughId };
    let events = 0;
    for (const dimension of Object.keys(DIMENSIONS) as AnalyticsDimension[]) {
      const rows = await aggregateEventsAfter(trx, { ...range, dimension });
      if (dimension === "total" || dimension === "not_found") events += rows.reduce((sum, row) => sum + row.views, 0);
      await addDaily(trx, dimension, rows);
      await addMonthly(trx, dimension, rows);
    }
    await addHourly(trx, await aggregateHoursAfter(trx, range));
    return { throughId, events };
  });
}

async function addDaily(trx: Transaction<Database>, dimension: AnalyticsDimension, rows: DeltaRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += EVENT_BATCH_ROWS) {
    await trx
      .insertInto("analytics_daily")
      .values(rows.slice(start, start + EVENT_BATCH_ROWS).map((row) => ({ ...row, dimension })))
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
async function addMonthly(trx: Transaction<Database>, dimension: AnalyticsDimension, rows: DeltaRow[]): Promise<void> {
  const months = new Map<
    string,
    { month: string; dimension: string; value: string; views: number; visitors: number }
  >();
  for (const row of rows) {
    const month = row.day.slice(0, 7);
    const key = `${month}\n${row.value}`;
    const sum = months.get(key) ?? { month, dimension, value: row.value, views: 0, visitors: 0 };
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

async function addHourly(trx: Transaction<Database>, rows: HourDeltaRow[]): Promise<void> {
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
