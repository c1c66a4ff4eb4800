/**
 * The Analytics screen's ranges. Days are the site's time zone at the time of counting
 * (docs/decisions/0016-analytics.md), written YYYY-MM-DD; a range holds both ends.
 */

export const ANALYTICS_RANGE_KEYS = ["today", "7d", "30d", "12m", "custom"] as const;
export type AnalyticsRangeKey = (typeof ANALYTICS_RANGE_KEYS)[number];

export const ANALYTICS_RANGE_LABELS: Record<AnalyticsRangeKey, string> = {
  today: "Today",
  "7d": "7 days",
  "30d": "30 days",
  "12m": "12 months",
  custom: "Custom",
};

/** How the chart groups a range: hours for one day, days up to this many, months beyond. */
export const DAILY_BUCKETS_MAX = 92;

/** The longest custom range or export: ten years. */
export const RANGE_DAYS_MAX = 3653;

export type Granularity = "hour" | "day" | "month";

export interface DayRange {
  from: string;
  to: string;
}

export interface AnalyticsRange extends DayRange {
  key: AnalyticsRangeKey;
  granularity: Granularity;
  /** As many days just before `from`: what the totals are compared with. */
  previous: DayRange;
}

export type RangeReading<T> = { ok: true; value: T } | { ok: false; message: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The day `value` names, or undefined for anything else (2025-02-30 included). */
export function parseDay(value: string): string | undefined {
  const match = DAY.exec(value);
  if (!match) return undefined;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(time).toISOString().slice(0, 10) === value ? value : undefined;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** How many days a range holds, both ends counted. */
export function daysIn({ from, to }: DayRange): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

function partsIn(timeZone: string, instant: Date): (type: string) => string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  return (type) => parts.find((item) => item.type === type)?.value ?? "";
}

/** The calendar day ('YYYY-MM-DD') at `instant` in `timeZone`. */
export function dayIn(timeZone: string, instant: Date): string {
  const part = partsIn(timeZone, instant);
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** The hour ('YYYY-MM-DDTHH') at `instant` in `timeZone`. */
export function hourIn(timeZone: string, instant: Date): string {
  const part = partsIn(timeZone, instant);
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}`;
}

function previousOf(range: DayRange): DayRange {
  return { from: addDays(range.from, -daysIn(range)), to: addDays(range.from, -1) };
}

function rangeOf(key: AnalyticsRangeKey, days: DayRange): AnalyticsRange {
  const length = daysIn(days);
  const granularity: Granularity = length === 1 ? "hour" : length <= DAILY_BUCKETS_MAX ? "day" : "month";
  return { key, ...days, granularity, previous: previousOf(days) };
}

/** `from` and `to` as typed: both real days, in order, at most RANGE_DAYS_MAX days apart. */
export function readDayRange(from: string, to: string): RangeReading<DayRange> {
  const start = parseDay(from);
  const end = parseDay(to);
  if (!start || !end) return { ok: false, message: "Dates are written YYYY-MM-DD, for example 2026-03-05." };
  if (start > end) return { ok: false, message: "The start date comes after the end date." };
  if (daysIn({ from: start, to: end }) > RANGE_DAYS_MAX) {
    return { ok: false, message: "A range covers at most ten years." };
  }
  return { ok: true, value: { from: start, to: end } };
}

/**
 * The range a query names: `range` (today when absent), or `from` and `to`, which make it custom
 * whatever `range` says, so the custom form needs no script to pick its radio button.
 */
export function readAnalyticsRange(
  query: { range: string; from: string; to: string },
  today: string,
): RangeReading<AnalyticsRange> {
  if (query.from || query.to) {
    const days = readDayRange(query.from, query.to);
    return days.ok ? { ok: true, value: rangeOf("custom", days.value) } : days;
  }
  switch (query.range || "today") {
    case "today":
      return { ok: true, value: rangeOf("today", { from: today, to: today }) };
    case "7d":
      return { ok: true, value: rangeOf("7d", { from: addDays(today, -6), to: today }) };
    case "30d":
      return { ok: true, value: rangeOf("30d", { from: addDays(today, -29), to: today }) };
    case "12m":
      // This month and the eleven before it, from the first of the month.
      return { ok: true, value: rangeOf("12m", { from: firstOfMonth(today, -11), to: today }) };
    case "custom":
      return { ok: false, message: "Choose the start and end dates of the range." };
    default:
      return { ok: false, message: "Choose a range: today, 7 days, 30 days, 12 months or custom dates." };
  }
}

function firstOfMonth(day: string, monthsBack: number): string {
  const date = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + monthsBack);
  return date.toISOString().slice(0, 10);
}

/**
 * Every bucket of the chart, in order: 'YYYY-MM-DDTHH' hours, 'YYYY-MM-DD' days or 'YYYY-MM'
 * months, so a bucket with nothing counted still shows as 0.
 */
export function bucketsOf(range: AnalyticsRange): string[] {
  if (range.granularity === "hour") {
    return Array.from({ length: 24 }, (_, hour) => `${range.from}T${String(hour).padStart(2, "0")}`);
  }
  const days = Array.from({ length: daysIn(range) }, (_, index) => addDays(range.from, index));
  if (range.granularity === "day") return days;
  return [...new Set(days.map((day) => day.slice(0, 7)))];
}

/** The bucket an hour ('YYYY-MM-DDTHH') falls in. */
export function bucketOfHour(hour: string, granularity: Granularity): string {
  return granularity === "hour" ? hour : granularity === "day" ? hour.slice(0, 10) : hour.slice(0, 7);
}

/** "+12%", "−5%", "0%"; "new" when the previous period had none, "" when neither had any. */
export function describeChange(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? "" : "new";
  const change = Math.round(((current - previous) / previous) * 100);
  return change > 0 ? `+${change}%` : change < 0 ? `−${Math.abs(change)}%` : "0%";
}

/**
 * A range read from the rollups: the monthly rows of `months` ('YYYY-MM'), less the daily rows of
 * `minus` (their days outside the range), plus the daily rows of `days`.
 */
export interface RollupSpan {
  days: DayRange[];
  months: string[];
  minus: DayRange[];
}

function lastOfMonth(month: string): string {
  return addDays(firstOfMonth(`${month}-01`, 1), -1);
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/**
 * How to read a range exactly with few rows: a whole month from its monthly row; a month the
 * range covers mostly (counting the days up to `today`, the only ones that hold rows) as its
 * monthly row less the days outside; the rest day by day.
 */
export function splitIntoMonths(range: DayRange, today: string): RollupSpan {
  const span: RollupSpan = { days: [], months: [], minus: [] };
  for (
    let month = range.from.slice(0, 7);
    month <= range.to.slice(0, 7);
    month = firstOfMonth(`${month}-01`, 1).slice(0, 7)
  ) {
    const first = `${month}-01`;
    const last = lastOfMonth(month);
    const inside = { from: later(range.from, first), to: earlier(range.to, last) };
    const before = inside.from > first ? [{ from: first, to: addDays(inside.from, -1) }] : [];
    const after = inside.to < last ? [{ from: addDays(inside.to, 1), to: last }] : [];
    // Days after today cost nothing to subtract: none holds a row yet.
    const outsideDays =
      before.reduce((sum, days) => sum + daysIn(days), 0) +
      after.reduce((sum, days) => sum + Math.max(0, daysIn({ from: days.from, to: earlier(days.to, today) })), 0);
    if (outsideDays < daysIn(inside)) {
      span.months.push(month);
      span.minus.push(...before, ...after);
    } else {
      span.days.push(inside);
    }
  }
  return span;
}
