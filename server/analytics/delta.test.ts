import { describe, expect, it } from "vitest";
import { addDeltas, type CountedEvent, countDelta } from "./delta.ts";

function view(overrides: Partial<CountedEvent>): CountedEvent {
  return {
    day: "2026-03-05",
    hour: "2026-03-05T10",
    kind: "view",
    path: "/",
    visitor_key: "a",
    source: null,
    utm_campaign: null,
    browser: "Firefox",
    os: "Linux",
    device: "desktop",
    screen: "large",
    country: null,
    ...overrides,
  };
}

describe("what new events add to the rollups", () => {
  it("counts every view and each visitor once per day and value, unless counted before", () => {
    const delta = countDelta(
      [view({ visitor_key: "a" }), view({ visitor_key: "a" }), view({ visitor_key: "b", path: "/blog" })],
      [view({ visitor_key: "b", path: "/other" })],
    );
    const total = delta.daily.find((row) => row.dimension === "total");
    expect(total).toEqual({ day: "2026-03-05", dimension: "total", value: "", views: 3, visitors: 1 });
    expect(delta.daily.find((row) => row.dimension === "path" && row.value === "/blog")?.visitors).toBe(1);
    expect(delta.daily.some((row) => row.dimension === "campaign" || row.dimension === "country")).toBe(false);
    expect(delta.daily.find((row) => row.dimension === "source")?.value).toBe("");
    expect(delta.hourly).toEqual([{ hour: "2026-03-05T10", views: 3, visitors: 1 }]);
  });

  it("counts a not-found page apart from the views", () => {
    const delta = countDelta([view({ kind: "not_found", path: "/gone" })], []);
    expect(delta.daily).toEqual([{ day: "2026-03-05", dimension: "not_found", value: "/gone", views: 1, visitors: 1 }]);
    expect(delta.hourly).toEqual([]);
  });

  it("adds two deltas in a row", () => {
    const first = countDelta([view({ visitor_key: "a" })], []);
    const second = countDelta([view({ visitor_key: "b" })], [view({ visitor_key: "a" })]);
    const total = addDeltas(first, second).daily.find((row) => row.dimension === "total");
    expect(total).toMatchObject({ views: 2, visitors: 2 });
  });
});
