// What the Analytics screen reads: the rollups (kept for good), raw events of the last minutes
// only, and the subscribers' and followers' own tables. Writes live in repositories/analytics.ts.
import { sql } from "kysely";
import type { AnalyticsDimension } from "#domain/analytics.ts";
import type { DayRange, RollupSpan } from "#domain/analytics-ranges.ts";
import type { Figures, ListRow, SeriesPoint } from "#domain/analytics-report.ts";
import type { Db } from "../../kernel/rows.ts";

/** How many new rows began in each UTC hour ('YYYY-MM-DDTHH'). */
export interface HourCount {
  hour: string;
  count: number;
}

const figures = (row: { views: unknown; visitors: unknown }): Figures => ({
  views: Number(row.views ?? 0),
  visitors: Number(row.visitors ?? 0),
});

/**
 * A dimension's rows over a span: days from the daily rollup and months from the monthly one,
 * less the days of those months outside the range (negated rows), so a year of a thousand paths
 * reads twelve rows a path instead of 365.
 */
function spanRows(db: Db, dimension: AnalyticsDimension, span: RollupSpan) {
  const days = (range: DayRange, sign: 1 | -1) =>
    db
      .selectFrom("analytics_daily")
      .select([
        "value",
        sql<number>`${sql.lit(sign)} * views`.as("views"),
        sql<number>`${sql.lit(sign)} * visitors`.as("visitors"),
      ])
      .where("dimension", "=", dimension)
      .where("day", ">=", range.from)
      .where("day", "<=", range.to);
  const [first, ...others] = [
    ...span.days.map((range) => days(range, 1)),
    ...span.minus.map((range) => days(range, -1)),
  ];
  const months =
    span.months.length > 0
      ? db
          .selectFrom("analytics_monthly")
          .select(["value", "views", "visitors"])
          .where("dimension", "=", dimension)
          .where("month", "in", span.months)
      : undefined;
  if (first) {
    let union = first;
    for (const part of [...others, ...(months ? [months] : [])]) union = union.unionAll(part);
    return db.selectFrom(union.as("r"));
  }
  if (!months) throw new Error("A span holds at least a day or a month");
  return db.selectFrom(months.as("r"));
}

/** A dimension's views and visitors summed over a span; for `total`, the span's totals. */
export async function sumDimension(db: Db, dimension: AnalyticsDimension, span: RollupSpan): Promise<Figures> {
  const row = await spanRows(db, dimension, span)
    .select((eb) => [
      eb.fn.sum<number | string>("r.views").as("views"),
      eb.fn.sum<number | string>("r.visitors").as("visitors"),
    ])
    .executeTakeFirstOrThrow();
  return figures(row);
}

/**
 * A dimension's values over a span, most viewed first (then most visitors, then by value, so
 * pages never overlap), `limit` from `offset` (all of them without a limit: the export); only
 * `values` when given.
 */
export async function listTopValues(
  db: Db,
  dimension: AnalyticsDimension,
  span: RollupSpan,
  { limit, offset = 0, values }: { limit?: number; offset?: number; values?: readonly string[] },
): Promise<ListRow[]> {
  if (values?.length === 0) return [];
  let query = spanRows(db, dimension, span)
    .select((eb) => [
      "r.value as value",
      eb.fn.sum<number | string>("r.views").as("views"),
      eb.fn.sum<number | string>("r.visitors").as("visitors"),
    ])
    .groupBy("r.value")
    // A month less its days outside the range can leave a value with nothing in the range.
    .having(sql`sum(r.views)`, ">", 0);
  if (values) query = query.where("r.value", "in", values);
  query = query
    .orderBy(sql`sum(r.views)`, "desc")
    .orderBy(sql`sum(r.visitors)`, "desc")
    .orderBy("r.value");
  if (limit !== undefined) query = query.limit(limit).offset(offset);
  const rows = await query.execute();
  return rows.map((row) => ({ value: row.value, ...figures(row) }));
}

/** One value of a dimension (a path) over a range. */
export async function sumDimensionValue(
  db: Db,
  dimension: AnalyticsDimension,
  value: string,
  range: DayRange,
): Promise<Figures> {
  const row = await db
    .selectFrom("analytics_daily")
    .select((eb) => [
      eb.fn.sum<number | string>("views").as("views"),
      eb.fn.sum<number | string>("visitors").as("visitors"),
    ])
    .where("dimension", "=", dimension)
    .where("value", "=", value)
    .where("day", ">=", range.from)
    .where("day", "<=", range.to)
    .executeTakeFirstOrThrow();
  return figures(row);
}

/**
 * The range's totals per day, or per month ('YYYY-MM') when `byMonth`; days or months with
 * nothing counted have no row. A month's visitors are the sum of its days' (a visitor is never
 * followed across days).
 */
export async function listTotalsByDay(db: Db, range: DayRange, byMonth: boolean): Promise<SeriesPoint[]> {
  const bucket = byMonth ? sql<string>`substr(day, 1, 7)` : sql<string>`day`;
  const rows = await db
    .selectFrom("analytics_daily")
    .select((eb) => [
      bucket.as("bucket"),
      eb.fn.sum<number | string>("views").as("views"),
      eb.fn.sum<number | string>("visitors").as("visitors"),
    ])
    .where("dimension", "=", "total")
    .where("day", ">=", range.from)
    .where("day", "<=", range.to)
    .groupBy(bucket)
    .orderBy(bucket)
    .execute();
  return rows.map((row) => ({ bucket: row.bucket, ...figures(row) }));
}

/** A day's totals per hour ('YYYY-MM-DDTHH'); hours with nothing counted have no row. */
export async function listTotalsByHour(db: Db, day: string): Promise<SeriesPoint[]> {
  const rows = await db
    .selectFrom("analytics_hourly")
    .select(["hour", "views", "visitors"])
    .where("hour", ">=", `${day}T00`)
    .where("hour", "<=", `${day}T23`)
    .orderBy("hour")
    .execute();
  return rows.map((row) => ({ bucket: row.hour, ...figures(row) }));
}

/** Distinct visitors whose page views were counted from `since` (up to `until`, if given; ISO UTC). */
export async function countVisitorsSince(db: Db, since: string, until?: string): Promise<number> {
  let query = db
    .selectFrom("analytics_events")
    .select(sql<number | string>`count(distinct visitor_key)`.as("visitors"))
    .where("occurred_at", ">=", since)
    .where("kind", "=", "view");
  if (until !== undefined) query = query.where("occurred_at", "<=", until);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.visitors);
}

const UTC_HOUR = sql<string>`substr(confirmed_at, 1, 13)`;

/** Subscribers confirmed in each UTC hour from `from` up to `to` (ISO UTC), whatever their state now. */
export async function countConfirmedSubscribersByHour(db: Db, from: string, to: string): Promise<HourCount[]> {
  const rows = await db
    .selectFrom("subscribers")
    .select((eb) => [UTC_HOUR.as("hour"), eb.fn.countAll<number | string>().as("count")])
    .where("confirmed_at", ">=", from)
    .where("confirmed_at", "<", to)
    .groupBy(UTC_HOUR)
    .execute();
  return rows.map((row) => ({ hour: row.hour, count: Number(row.count) }));
}

const FOLLOW_HOUR = sql<string>`substr(created_at, 1, 13)`;

/** Fediverse followers (accepted ones, still following) who followed in each UTC hour from `from` up to `to`. */
export async function countFollowersByHour(db: Db, from: string, to: string): Promise<HourCount[]> {
  const rows = await db
    .selectFrom("fediverse_followers")
    .select((eb) => [FOLLOW_HOUR.as("hour"), eb.fn.countAll<number | string>().as("count")])
    .where("state", "=", "accepted")
    .where("created_at", ">=", from)
    .where("created_at", "<", to)
    .groupBy(FOLLOW_HOUR)
    .execute();
  return rows.map((row) => ({ hour: row.hour, count: Number(row.count) }));
}

export interface FeedDay {
  day: string;
  fetcher: string;
  fetchers: number;
  subscribers: number;
}

/** Each feed reader's figures on each day of a range, oldest first: a few rows a day. */
export async function listFeedDays(db: Db, range: DayRange): Promise<FeedDay[]> {
  const rows = await db
    .selectFrom("analytics_feed_daily")
    .select(["day", "fetcher", "fetchers", "subscribers"])
    .where("day", ">=", range.from)
    .where("day", "<=", range.to)
    .orderBy("day")
    .orderBy("fetcher")
    .execute();
  return rows.map((row) => ({ ...row, fetchers: Number(row.fetchers), subscribers: Number(row.subscribers) }));
}
