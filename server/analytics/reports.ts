// The Analytics screen's figures (docs/decisions/0016-analytics.md): read from the rollups (whole
// months from the monthly one) plus the events not rolled up yet; counting is server/analytics/service.ts.
import type { Kysely } from "kysely";
import type { AnalyticsDimension } from "#domain/analytics.ts";
import {
  type AnalyticsRange,
  addDays,
  bucketOfHour,
  bucketsOf,
  type DayRange,
  dayIn,
  hourIn,
  splitIntoMonths,
} from "#domain/analytics-ranges.ts";
import {
  type AnalyticsReport,
  type CountPoint,
  type FeedReaderRow,
  type Figures,
  type ListRow,
  REPORT_LIST_PAGE_SIZE,
  REPORT_LISTS,
  type ReportList,
  type ReportListDimension,
  VISITORS_NOW_MINUTES,
} from "#domain/analytics-report.ts";
import type { Database } from "../kernel/db/schema.ts";
import { readRollupTail, type RollupTail } from "./repositories/analytics.ts";
import * as reports from "./repositories/analytics-reports.ts";
import { csvCell } from "../newsletter/index.ts";

/** A list's page other than the first: which list, and which page (1-based). */
export interface ListPage {
  dimension: ReportListDimension;
  page: number;
}

export const ANALYTICS_CSV_COLUMNS = ["path", "views", "visitors"] as const;

/** Rows per chunk written while exporting. */
const EXPORT_BATCH = 1000;

/** How many days the post editor's figure covers. */
export const POST_VIEWS_DAYS = 30;

/**
 * The UTC window that holds every instant of a range of the site's days: no zone is more than
 * 14 hours from UTC, so a day either side is enough.
 */
function utcWindow(range: DayRange): { from: string; to: string } {
  return { from: `${addDays(range.from, -1)}T00`, to: `${addDays(range.to, 2)}T00` };
}

const inRange = (day: string, range: DayRange) => day >= range.from && day <= range.to;

/** What the tail adds to one dimension's values over a range. */
function tailByValue(tail: RollupTail, dimension: AnalyticsDimension, range: DayRange): Map<string, Figures> {
  const sums = new Map<string, Figures>();
  for (const row of tail.daily) {
    if (row.dimension !== dimension || !inRange(row.day, range)) continue;
    const sum = sums.get(row.value) ?? { views: 0, visitors: 0 };
    sums.set(row.value, { views: sum.views + row.views, visitors: sum.visitors + row.visitors });
  }
  return sums;
}

function addFigures(a: Figures, b: Figures | undefined): Figures {
  return b ? { views: a.views + b.views, visitors: a.visitors + b.visitors } : a;
}

/** Feed subscribers are a stock, not a flow: each reader's figure is its last day's in the range. */
function feedReaders(days: reports.FeedDay[]): FeedReaderRow[] {
  const latest = new Map(days.map((row) => [row.fetcher, row]));
  return [...latest.values()]
    .sort((a, b) => b.subscribers - a.subscribers || (a.fetcher < b.fetcher ? -1 : 1))
    .slice(0, REPORT_LIST_PAGE_SIZE);
}

/** The lists' order: most views, then most visitors, then by value. */
function byRank(a: ListRow, b: ListRow): number {
  return b.views - a.views || b.visitors - a.visitors || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** Rollup rows with the tail's figures added, tail-only values included, in the lists' order. */
function mergeTail(rows: ListRow[], tail: Map<string, Figures>): ListRow[] {
  const merged = new Map(rows.map((row) => [row.value, row]));
  for (const [value, figures] of tail) {
    merged.set(value, { value, ...addFigures(merged.get(value) ?? { views: 0, visitors: 0 }, figures) });
  }
  return [...merged.values()].sort(byRank);
}

export function createAnalyticsReports({ db, now }: { db: Kysely<Database>; now: () => Date }) {
  /**
   * Rows counted per UTC hour, put in the range's buckets in the site's zone. A zone whose offset
   * is not whole hours (India's) places a row at its hour's start: at most 45 minutes off.
   */
  function bucketCounts(range: AnalyticsRange, timeZone: string, hours: reports.HourCount[]): CountPoint[] {
    const counts = new Map(bucketsOf(range).map((bucket) => [bucket, 0]));
    for (const { hour, count } of hours) {
      const local = hourIn(timeZone, new Date(`${hour}:00:00.000Z`));
      const bucket = bucketOfHour(local, range.granularity);
      const current = counts.get(bucket);
      if (current !== undefined) counts.set(bucket, current + count);
    }
    return [...counts].map(([bucket, count]) => ({ bucket, count }));
  }

  /** A dimension's sum over a range, the tail's events included. */
  async function sumWithTail(
    dimension: AnalyticsDimension,
    range: DayRange,
    today: string,
    tail: RollupTail,
  ): Promise<Figures> {
    const rolled = await reports.sumDimension(db, dimension, splitIntoMonths(range, today));
    return [...tailByValue(tail, dimension, range).values()].reduce(addFigures, rolled);
  }

  /** The events not rolled up yet, the minute or two since the last pass; each use keeps the days it needs. */
  function readTail(): Promise<RollupTail> {
    return readRollupTail(db);
  }

  async function readSeries(range: AnalyticsRange, tail: RollupTail) {
    const rows =
      range.granularity === "hour"
        ? await reports.listTotalsByHour(db, range.from)
        : await reports.listTotalsByDay(db, range, range.granularity === "month");
    const found = new Map(rows.map((row) => [row.bucket, row]));
    const series = bucketsOf(range).map((bucket) => found.get(bucket) ?? { bucket, views: 0, visitors: 0 });
    const extra =
      range.granularity === "hour"
        ? tail.hourly.map((row) => ({ ...row, bucket: row.hour }))
        : tail.daily
            .filter((row) => row.dimension === "total" && inRange(row.day, range))
            .map((row) => ({ ...row, bucket: bucketOfHour(`${row.day}T00`, range.granularity) }));
    return series.map((point) =>
      extra
        .filter((row) => row.bucket === point.bucket)
        .reduce((sum, row) => ({ ...sum, ...addFigures(sum, row) }), point),
    );
  }

  /**
   * One page of a list. When the tail counted some values, the rollup's top rows are read with
   * room for each of them to overtake one, so the merged page is the one a full rollup would give.
   */
  async function readList(
    dimension: ReportListDimension,
    range: DayRange,
    today: string,
    page: number,
    tail: RollupTail,
  ): Promise<ReportList> {
    const span = splitIntoMonths(range, today);
    const offset = (page - 1) * REPORT_LIST_PAGE_SIZE;
    const added = tailByValue(tail, dimension, range);
    let rows: ListRow[];
    if (added.size === 0) {
      rows = await reports.listTopValues(db, dimension, span, { limit: REPORT_LIST_PAGE_SIZE + 1, offset });
    } else {
      const top = await reports.listTopValues(db, dimension, span, {
        limit: offset + REPORT_LIST_PAGE_SIZE + 1 + added.size,
        offset: 0,
      });
      const listed = new Set(top.map((row) => row.value));
      const missing = [...added.keys()].filter((value) => !listed.has(value));
      const others = await reports.listTopValues(db, dimension, span, {
        limit: missing.length,
        offset: 0,
        values: missing,
      });
      rows = mergeTail([...top, ...others], added).slice(offset, offset + REPORT_LIST_PAGE_SIZE + 1);
    }
    return {
      dimension,
      page,
      rows: rows.slice(0, REPORT_LIST_PAGE_SIZE),
      hasMore: rows.length > REPORT_LIST_PAGE_SIZE,
    };
  }

  return {
    /** Today in the site's time zone, on this service's clock. */
    today(timeZone: string): string {
      return dayIn(timeZone, now());
    },

    /** Everything the screen shows for a range; `listPage` turns one list past its first page. */
    async report(range: AnalyticsRange, timeZone: string, listPage?: ListPage): Promise<AnalyticsReport> {
      const at = now().getTime();
      // Up to a minute ahead: a view stamped by another server whose clock runs a little fast.
      const recent = {
        from: new Date(at - VISITORS_NOW_MINUTES * 60_000).toISOString(),
        to: new Date(at + 60_000).toISOString(),
      };
      const window = utcWindow(range);
      const today = dayIn(timeZone, now());
      const tail = await readTail();
      const [totals, previous, series, visitorsNow, lists, subscribers, followers, feeds] = await Promise.all([
        sumWithTail("total", range, today, tail),
        sumWithTail("total", range.previous, today, tail),
        readSeries(range, tail),
        reports.countVisitorsSince(db, recent.from, recent.to),
        Promise.all(
          REPORT_LISTS.map(({ dimension }) =>
            readList(dimension, range, today, listPage?.dimension === dimension ? listPage.page : 1, tail),
          ),
        ),
        reports.countConfirmedSubscribersByHour(db, window.from, window.to),
        reports.countFollowersByHour(db, window.from, window.to),
        reports.listFeedDays(db, range),
      ]);
      return {
        range,
        totals,
        previous,
        series,
        visitorsNow,
        lists,
        subscribers: bucketCounts(range, timeZone, subscribers),
        followers: bucketCounts(range, timeZone, followers),
        feedReaders: feedReaders(feeds),
      };
    },

    /**
     * The blog's views and visitors over the last `days` days, today included (the dashboard):
     * the total rollup's few rows of those days plus the tail, two statements whatever the traffic.
     */
    async lastDays(days: number, timeZone: string): Promise<Figures> {
      const today = dayIn(timeZone, now());
      const tail = await readTail();
      return sumWithTail("total", { from: addDays(today, 1 - days), to: today }, today, tail);
    },

    /** A post's views and visitors over the last POST_VIEWS_DAYS days, today included. */
    async postViews(path: string, timeZone: string): Promise<Figures> {
      const today = dayIn(timeZone, now());
      const range = { from: addDays(today, 1 - POST_VIEWS_DAYS), to: today };
      const tail = await readTail();
      const rolled = await reports.sumDimensionValue(db, "path", path, range);
      return addFigures(rolled, tailByValue(tail, "path", range).get(path));
    },

    /**
     * Every path of a range as CSV (path, views, visitors), most viewed first. The rollup is read
     * in batches; a range's paths are as many as the blog's pages, so their figures fit in memory.
     */
    async *exportCsv(range: DayRange): AsyncGenerator<string> {
      // The export knows no time zone: the latest day anywhere only picks how to read, never what.
      const span = splitIntoMonths(range, addDays(dayIn("UTC", now()), 1));
      // One grouping over the span: the tail is merged into the whole list, so it is read whole.
      const rows = await reports.listTopValues(db, "path", span, {});
      const tail = await readTail();
      yield `${ANALYTICS_CSV_COLUMNS.join(",")}\r\n`;
      const merged = mergeTail(rows, tailByValue(tail, "path", range));
      for (let start = 0; start < merged.length; start += EXPORT_BATCH) {
        yield merged
          .slice(start, start + EXPORT_BATCH)
          .map((row) => `${[row.value, String(row.views), String(row.visitors)].map(csvCell).join(",")}\r\n`)
          .join("");
      }
    },
  };
}

export type AnalyticsReports = ReturnType<typeof createAnalyticsReports>;
