import type { AnalyticsDimension } from "./analytics.ts";
import type { AnalyticsRange } from "./analytics-ranges.ts";

/** What the Analytics screen shows (server/analytics/reports.ts builds it). */

export interface Figures {
  views: number;
  visitors: number;
}

export interface SeriesPoint extends Figures {
  /** 'YYYY-MM-DDTHH', 'YYYY-MM-DD' or 'YYYY-MM', in the site's time zone. */
  bucket: string;
}

export interface ListRow extends Figures {
  value: string;
}

export interface ReportList {
  dimension: ReportListDimension;
  /** 1-based. */
  page: number;
  rows: ListRow[];
  hasMore: boolean;
}

export interface CountPoint {
  bucket: string;
  count: number;
}

/** A feed reader ("Feedly", "NetNewsWire", "other") on the last day of the range it fetched a feed. */
export interface FeedReaderRow {
  fetcher: string;
  /** Subscribers it states (or one per fetcher that states none). */
  subscribers: number;
  /** Distinct fetchers of that name. */
  fetchers: number;
  day: string;
}

export interface AnalyticsReport {
  range: AnalyticsRange;
  totals: Figures;
  previous: Figures;
  series: SeriesPoint[];
  /** Distinct visitors in the last VISITORS_NOW_MINUTES. */
  visitorsNow: number;
  lists: ReportList[];
  /** Newsletter subscribers confirmed in each bucket. */
  subscribers: CountPoint[];
  /** Fediverse accounts that followed in each bucket (accepted and still following). */
  followers: CountPoint[];
  /** Feed readers with their latest figures in the range, most subscribers first. */
  feedReaders: FeedReaderRow[];
}

export const VISITORS_NOW_MINUTES = 5;

/** Rows a list shows per page: every list is capped. */
export const REPORT_LIST_PAGE_SIZE = 10;

/** The most pages a list offers (100 rows); an export has them all. */
export const REPORT_LIST_PAGES_MAX = 10;

/** The lists beside the chart, in the screen's order, with their headings and first column. */
export const REPORT_LISTS = [
  { dimension: "path", title: "Top posts and pages", column: "Path" },
  { dimension: "source", title: "Sources", column: "Source" },
  { dimension: "campaign", title: "Campaigns", column: "Campaign" },
  { dimension: "device", title: "Devices", column: "Device" },
  { dimension: "browser", title: "Browsers", column: "Browser" },
  { dimension: "os", title: "Operating systems", column: "Operating system" },
  { dimension: "screen", title: "Screen sizes", column: "Screen" },
  { dimension: "country", title: "Countries", column: "Country" },
  { dimension: "not_found", title: "Not found", column: "Path" },
] as const satisfies readonly { dimension: AnalyticsDimension; title: string; column: string }[];

export type ReportListDimension = (typeof REPORT_LISTS)[number]["dimension"];

export function isReportListDimension(value: string): value is ReportListDimension {
  return REPORT_LISTS.some((list) => list.dimension === value);
}
