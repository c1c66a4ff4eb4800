import { describe, expect, it } from "vitest";
import {
  bucketsOf,
  dayIn,
  describeChange,
  hourIn,
  readAnalyticsRange,
  readDayRange,
  splitIntoMonths,
} from "./analytics-ranges.ts";

const read = (query: Partial<{ range: string; from: string; to: string }>, today = "2026-03-15") =>
  readAnalyticsRange({ range: "", from: "", to: "", ...query }, today);

function rangeOf(query: Partial<{ range: string; from: string; to: string }>) {
  const reading = read(query);
  if (!reading.ok) throw new Error(reading.message);
  return reading.value;
}

describe("the Analytics screen's ranges", () => {
  it("reads today by the hour, 7 and 30 days by the day, 12 months by the month, each against the period before", () => {
    expect(read({})).toEqual({
      ok: true,
      value: {
        key: "today",
        from: "2026-03-15",
        to: "2026-03-15",
        granularity: "hour",
        previous: { from: "2026-03-14", to: "2026-03-14" },
      },
    });
    expect(read({ range: "7d" })).toMatchObject({
      value: {
        from: "2026-03-09",
        to: "2026-03-15",
        granularity: "day",
        previous: { from: "2026-03-02", to: "2026-03-08" },
      },
    });
    expect(read({ range: "30d" })).toMatchObject({
      value: { from: "2026-02-14", to: "2026-03-15", granularity: "day" },
    });
    expect(read({ range: "12m" })).toMatchObject({
      value: { from: "2025-04-01", to: "2026-03-15", granularity: "month", previous: { to: "2025-03-31" } },
    });
  });

  it("makes any from–to a custom range, and refuses dates that are not real, reversed or too far apart", () => {
    expect(read({ range: "7d", from: "2024-02-28", to: "2024-03-01" })).toMatchObject({
      value: { key: "custom", granularity: "day", previous: { from: "2024-02-25", to: "2024-02-27" } },
    });
    expect(read({ from: "2024-01-01", to: "2024-12-31" })).toMatchObject({ value: { granularity: "month" } });
    expect(read({ from: "2024-05-05", to: "2024-05-05" })).toMatchObject({ value: { granularity: "hour" } });
    expect(read({ from: "2025-02-30", to: "2025-03-01" })).toEqual({
      ok: false,
      message: "Dates are written YYYY-MM-DD, for example 2026-03-05.",
    });
    expect(read({ from: "2025-03-01" })).toMatchObject({ ok: false });
    expect(read({ from: "2025-03-02", to: "2025-03-01" })).toEqual({
      ok: false,
      message: "The start date comes after the end date.",
    });
    expect(readDayRange("2000-01-01", "2025-01-01")).toEqual({
      ok: false,
      message: "A range covers at most ten years.",
    });
    expect(read({ range: "forever" })).toMatchObject({ ok: false });
    expect(read({ range: "custom" })).toEqual({ ok: false, message: "Choose the start and end dates of the range." });
  });

  it("lists every bucket of the chart, empty ones included", () => {
    const hours = bucketsOf(rangeOf({}));
    expect(hours).toHaveLength(24);
    expect(hours[0]).toBe("2026-03-15T00");
    expect(hours[23]).toBe("2026-03-15T23");
    expect(bucketsOf(rangeOf({ range: "12m" }))).toEqual([
      "2025-04",
      "2025-05",
      "2025-06",
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
    ]);
  });

  it("takes the day in the site's time zone", () => {
    const now = new Date("2026-03-15T23:30:00Z");
    expect(dayIn("UTC", now)).toBe("2026-03-15");
    expect(dayIn("Europe/Paris", now)).toBe("2026-03-16");
    expect(dayIn("America/Los_Angeles", now)).toBe("2026-03-15");
    expect(hourIn("Europe/Paris", now)).toBe("2026-03-16T00");
    expect(hourIn("Asia/Kolkata", new Date("2026-03-15T18:29:00Z"))).toBe("2026-03-15T23");
  });

  it("says how the totals changed", () => {
    expect(describeChange(112, 100)).toBe("+12%");
    expect(describeChange(95, 100)).toBe("−5%");
    expect(describeChange(100, 100)).toBe("0%");
    expect(describeChange(3, 0)).toBe("new");
    expect(describeChange(0, 0)).toBe("");
  });
});

describe("reading a range from the rollups", () => {
  it("reads whole months from the monthly rollup, a month mostly covered as its row less the days outside, the rest by day", () => {
    // Today is the 15th: no day after it holds anything yet, so the month under way reads as its row less nothing.
    expect(splitIntoMonths(rangeOf({ range: "12m" }), "2026-03-15")).toEqual({
      days: [],
      months: [
        "2025-04",
        "2025-05",
        "2025-06",
        "2025-07",
        "2025-08",
        "2025-09",
        "2025-10",
        "2025-11",
        "2025-12",
        "2026-01",
        "2026-02",
        "2026-03",
      ],
      minus: [{ from: "2026-03-16", to: "2026-03-31" }],
    });
    expect(splitIntoMonths({ from: "2025-01-15", to: "2025-04-10" }, "2026-03-15")).toEqual({
      days: [{ from: "2025-04-01", to: "2025-04-10" }],
      months: ["2025-01", "2025-02", "2025-03"],
      minus: [{ from: "2025-01-01", to: "2025-01-14" }],
    });
    expect(splitIntoMonths({ from: "2024-02-01", to: "2024-02-29" }, "2026-03-15")).toEqual({
      days: [],
      months: ["2024-02"],
      minus: [],
    });
    expect(splitIntoMonths(rangeOf({ range: "7d" }), "2026-03-15")).toEqual({
      days: [{ from: "2026-03-09", to: "2026-03-15" }],
      months: [],
      minus: [],
    });
    expect(splitIntoMonths({ from: "2026-02-20", to: "2026-03-02" }, "2026-03-02")).toEqual({
      days: [{ from: "2026-02-20", to: "2026-02-28" }],
      months: ["2026-03"],
      minus: [{ from: "2026-03-03", to: "2026-03-31" }],
    });
  });
});
