import { ANALYTICS_DIMENSIONS, type AnalyticsDimension } from "#domain/analytics.ts";
import type { AnalyticsEventsTable } from "../kernel/db/schema.ts";

/** What the rollups read of an event. */
export type CountedEvent = Pick<
  AnalyticsEventsTable,
  | "day"
  | "hour"
  | "kind"
  | "path"
  | "visitor_key"
  | "source"
  | "utm_campaign"
  | "browser"
  | "os"
  | "device"
  | "screen"
  | "country"
>;

/**
 * Which events count in a dimension, and under which value: views only, except `not_found`;
 * the source '' for none (direct); no campaign or country row for an event without one.
 */
const DIMENSION_VALUES: Record<AnalyticsDimension, (event: CountedEvent) => string | null> = {
  total: () => "",
  path: (event) => event.path,
  source: (event) => event.source ?? "",
  campaign: (event) => event.utm_campaign,
  browser: (event) => event.browser,
  os: (event) => event.os,
  device: (event) => event.device,
  screen: (event) => event.screen,
  country: (event) => event.country,
  not_found: (event) => event.path,
};

function valueOf(dimension: AnalyticsDimension, event: CountedEvent): string | null {
  if ((dimension === "not_found") !== (event.kind === "not_found")) return null;
  return DIMENSION_VALUES[dimension](event);
}

export interface DailyDelta {
  day: string;
  dimension: AnalyticsDimension;
  value: string;
  views: number;
  /** Visitors not already counted for the same day and value: add them to the rollup's. */
  visitors: number;
}

export interface HourlyDelta {
  hour: string;
  views: number;
  visitors: number;
}

export interface Delta {
  daily: DailyDelta[];
  hourly: HourlyDelta[];
}

/**
 * What `events` add to rollups that already hold `earlier`: every view counts, a visitor only
 * if no earlier event of the same day (or hour) and value carries their key. `earlier` need hold
 * only the earlier events of the visitors in `events`, which is how it is read.
 */
export function countDelta(events: readonly CountedEvent[], earlier: readonly CountedEvent[]): Delta {
  const seen = new Set<string>();
  for (const event of earlier) {
    for (const dimension of ANALYTICS_DIMENSIONS) {
      const value = valueOf(dimension, event);
      if (value !== null) seen.add(`${event.day}\n${dimension}\n${value}\n${event.visitor_key}`);
    }
    if (event.kind === "view") seen.add(`${event.hour}\n${event.visitor_key}`);
  }
  const daily = new Map<string, { row: DailyDelta; keys: Set<string> }>();
  const hourly = new Map<string, { row: HourlyDelta; keys: Set<string> }>();
  for (const event of events) {
    for (const dimension of ANALYTICS_DIMENSIONS) {
      const value = valueOf(dimension, event);
      if (value === null) continue;
      const group = `${event.day}\n${dimension}\n${value}`;
      let entry = daily.get(group);
      if (!entry) {
        entry = { row: { day: event.day, dimension, value, views: 0, visitors: 0 }, keys: new Set() };
        daily.set(group, entry);
      }
      entry.row.views += 1;
      if (!seen.has(`${group}\n${event.visitor_key}`)) entry.keys.add(event.visitor_key);
    }
    if (event.kind !== "view") continue;
    let entry = hourly.get(event.hour);
    if (!entry) {
      entry = { row: { hour: event.hour, views: 0, visitors: 0 }, keys: new Set() };
      hourly.set(event.hour, entry);
    }
    entry.row.views += 1;
    if (!seen.has(`${event.hour}\n${event.visitor_key}`)) entry.keys.add(event.visitor_key);
  }
  return {
    daily: [...daily.values()].map(({ row, keys }) => ({ ...row, visitors: keys.size })),
    hourly: [...hourly.values()].map(({ row, keys }) => ({ ...row, visitors: keys.size })),
  };
}

/** Two deltas in a row (the second counted over everything before it) make one. */
export function addDeltas(first: Delta, second: Delta): Delta {
  const daily = new Map(first.daily.map((row) => [`${row.day}\n${row.dimension}\n${row.value}`, { ...row }]));
  for (const row of second.daily) {
    const key = `${row.day}\n${row.dimension}\n${row.value}`;
    const sum = daily.get(key);
    if (sum) {
      sum.views += row.views;
      sum.visitors += row.visitors;
    } else daily.set(key, { ...row });
  }
  const hourly = new Map(first.hourly.map((row) => [row.hour, { ...row }]));
  for (const row of second.hourly) {
    const sum = hourly.get(row.hour);
    if (sum) {
      sum.views += row.views;
      sum.visitors += row.visitors;
    } else hourly.set(row.hour, { ...row });
  }
  return { daily: [...daily.values()], hourly: [...hourly.values()] };
}
