// The Analytics screen's figures (docs/decisions/0016-analytics.md): read from the rollups, so a
// year of views costs a few hundred rows; counting them is services/analytics.ts.
import type { Kysely } from "kysely";
import {
  type AnalyticsRange,
  addDays,
  bucketOfHour,
  bucketsOf,
  type DayRange,
  dayIn,
  hourIn,
} from "#domain/analytics-ranges.ts";
import {
  type AnalyticsReport,
  type CountPoint,
  type Figures,
  REPORT_LIST_PAGE_SIZE,
  REPORT_LISTS,
  type ReportList,
  type ReportListDimension,
  VISITORS_NOW_MINUTES,
} from "#domain/analytics-report.ts";
import type { Database } from "../db/schema.ts";
import { guardDatabase } from "../errors.ts";
import * as reports from "../repositories/analytics-reports.ts";
import { csvCell } from "./subscriber-csv.ts";

/** A list's page other than the first: which list, and which page (1-based). */
export interface ListPage {
  dimension: ReportListDimension;
  page: number;
}

export const ANALYTICS_CSV_COLUMNS = ["path", "views", "visitors"] as const;

/** Rows per query while exporting: memory stays flat however many paths a range has. */
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

  async function readSeries(range: AnalyticsRange) {
    const rows =
      range.granularity === "hour"
        ? await reports.listTotalsByHour(db, range.from)
        : await reports.listTotalsByDay(db, range, range.granularity === "month");
    const found = new Map(rows.map((row) => [row.bucket, row]));
    return bucketsOf(range).map((bucket) => found.get(bucket) ?? { bucket, views: 0, visitors: 0 });
  }

  async function readList(dimension: ReportListDimension, range: DayRange, page: number): Promise<ReportList> {
    const rows = await reports.listTopValues(db, dimension, range, {
      limit: REPORT_LIST_PAGE_SIZE + 1,
      offset: (page - 1) * REPORT_LIST_PAGE_SIZE,
    });
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
      const since = new Date(now().getTime() - VISITORS_NOW_MINUTES * 60_000).toISOString();
      const window = utcWindow(range);
      return guardDatabase(async () => {
        const [totals, previous, series, visitorsNow, lists, subscribers, followers] = await Promise.all([
          reports.sumDimension(db, "total", range),
          reports.sumDimension(db, "total", range.previous),
          readSeries(range),
          reports.countVisitorsSince(db, since),
          Promise.all(
            REPORT_LISTS.map(({ dimension }) =>
              readList(dimension, range, listPage?.dimension === dimension ? listPage.page : 1),
            ),
          ),
          reports.countConfirmedSubscribersByHour(db, window.from, window.to),
          reports.countFollowersByHour(db, window.from, window.to),
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
        };
      });
    },

    /** A post's views and visitors over the last POST_VIEWS_DAYS days, today included. */
    async postViews(path: string, timeZone: string): Promise<Figures> {
      const today = dayIn(timeZone, now());
      const range = { from: addDays(today, 1 - POST_VIEWS_DAYS), to: today };
      return guardDatabase(() => reports.sumDimensionValue(db, "path", path, range));
    },

    /** Every path of a range as CSV (path, views, visitors), most viewed first, read in batches. */
    async *exportCsv(range: DayRange): AsyncGenerator<string> {
      yield `${ANALYTICS_CSV_COLUMNS.join(",")}\r\n`;
      for (let offset = 0; ; offset += EXPORT_BATCH) {
        const rows = await guardDatabase(() =>
          reports.listTopValues(db, "path", range, { limit: EXPORT_BATCH, offset }),
        );
        if (rows.length > 0) {
          yield rows
            .map((row) => `${[row.value, String(row.views), String(row.visitors)].map(csvCell).join(",")}\r\n`)
            .join("");
        }
        if (rows.length < EXPORT_BATCH) return;
      }
    },
  };
}

export type AnalyticsReports = ReturnType<typeof createAnalyticsReports>;
