import { describe, expect, it } from "vitest";
import type { AnalyticsDimension } from "../../domain/analytics.ts";
import { readRollupTail } from "../../server/analytics/repositories/analytics.ts";
import type { BeaconRequest } from "../../server/analytics/service.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

const HOUR = 60 * 60 * 1000;
const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
];
const PATHS = ["/", "/blog", "/blog/hello", "/blog/second?utm_campaign=spring&utm_source=letter"];
const REFERRERS = ["", "https://www.google.com/", "https://mastodon.social/@friend", "https://friend.example/"];

interface Figure {
  views: number;
  visitors: number;
}

/** The figures each (day, dimension, value) should have, counted straight from the raw events. */
function expectedFromRaw(events: Record<string, string | number | null>[]): Map<string, Figure> {
  const values: Record<AnalyticsDimension, (event: Record<string, string | number | null>) => string | null> = {
    total: () => "",
    path: (event) => String(event.path),
    source: (event) => (event.source as string | null) ?? "",
    campaign: (event) => event.utm_campaign as string | null,
    browser: (event) => String(event.browser),
    os: (event) => String(event.os),
    device: (event) => String(event.device),
    screen: (event) => String(event.screen),
    country: (event) => event.country as string | null,
    not_found: (event) => String(event.path),
  };
  const groups = new Map<string, { views: number; keys: Set<string> }>();
  for (const event of events) {
    for (const [dimension, valueOf] of Object.entries(values)) {
      if ((dimension === "not_found") !== (event.kind === "not_found")) continue;
      const value = valueOf(event);
      if (value === null) continue;
      const key = `${event.day}|${dimension}|${value}`;
      const group = groups.get(key) ?? { views: 0, keys: new Set() };
      group.views += 1;
      group.keys.add(String(event.visitor_key));
      groups.set(key, group);
    }
  }
  return new Map([...groups].map(([key, group]) => [key, { views: group.views, visitors: group.keys.size }]));
}

describe.each(testDialects())("analytics rollups on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  async function countSome(round: number): Promise<void> {
    for (let index = 0; index < 24; index += 1) {
      const request: BeaconRequest = {
        body: {
          p: PATHS[(index + round) % PATHS.length] ?? "/",
          r: REFERRERS[index % REFERRERS.length] ?? "",
          w: [360, 800, 1440][index % 3] ?? 0,
          k: index % 11 === 0 ? "nf" : undefined,
        },
        address: `198.51.100.${index % 5}`,
        userAgent: AGENTS[index % AGENTS.length] ?? "",
        optedOut: false,
        signedIn: false,
      };
      await blog.services.analytics.countView(request);
    }
    await blog.services.analytics.flush();
  }

  async function rolledUp(withTail: boolean): Promise<Map<string, Figure>> {
    const rows = await blog.handle.db.selectFrom("analytics_daily").selectAll().execute();
    const figures = new Map(
      rows.map((row) => [`${row.day}|${row.dimension}|${row.value}`, { views: row.views, visitors: row.visitors }]),
    );
    if (withTail) {
      for (const row of (await readRollupTail(blog.handle.db)).daily) {
        const key = `${row.day}|${row.dimension}|${row.value}`;
        const figure = figures.get(key) ?? { views: 0, visitors: 0 };
        figures.set(key, { views: figure.views + row.views, visitors: figure.visitors + row.visitors });
      }
    }
    return figures;
  }

  const raw = () => blog.handle.db.selectFrom("analytics_events").selectAll().execute();

  it("add up, pass after pass and across midnight, to what the raw events say", async () => {
    const { analytics } = blog.services;
    blog.clock.advance(12 * HOUR); // 22:00 UTC: the rounds cross into the next day
    for (let round = 0; round < 5; round += 1) {
      await countSome(round);
      await analytics.rollUp();
      // Rollups and their tail are exact at any moment, not only once the rollup caught up.
      expect(await rolledUp(true)).toEqual(expectedFromRaw(await raw()));
      blog.clock.advance(HOUR / 2);
    }
    await analytics.rollUp();
    blog.clock.advance(10_000);
    await analytics.rollUp();

    expect(await rolledUp(false)).toEqual(expectedFromRaw(await raw()));
    expect((await readRollupTail(blog.handle.db)).daily).toEqual([]);
    // Months are the sum of their days, visitors included (the screen's definition of a range's visitors).
    const monthly = await blog.handle.db.selectFrom("analytics_monthly").selectAll().execute();
    const summed = new Map<string, Figure>();
    for (const [key, figure] of await rolledUp(false)) {
      const [day = "", dimension, value] = key.split("|");
      const monthKey = `${day.slice(0, 7)}|${dimension}|${value}`;
      const sum = summed.get(monthKey) ?? { views: 0, visitors: 0 };
      summed.set(monthKey, { views: sum.views + figure.views, visitors: sum.visitors + figure.visitors });
    }
    expect(
      new Map(
        monthly.map((row) => [
          `${row.month}|${row.dimension}|${row.value}`,
          { views: row.views, visitors: row.visitors },
        ]),
      ),
    ).toEqual(summed);
    const days = new Set((await raw()).map((event) => event.day));
    expect([...days].sort()).toEqual(["2026-03-05", "2026-03-06"]);
  });

  it("count the hours of the day chart like the days", async () => {
    const { analytics } = blog.services;
    await countSome(0);
    blog.clock.advance(HOUR);
    await countSome(1);
    await analytics.rollUp();
    blog.clock.advance(10_000);
    await analytics.rollUp();
    const hourly = await blog.handle.db.selectFrom("analytics_hourly").selectAll().orderBy("hour").execute();
    const views = (await raw()).filter((event) => event.kind === "view");
    const visitorsIn = (hour: string) =>
      new Set(views.filter((event) => event.hour === hour).map((event) => event.visitor_key)).size;
    expect(hourly).toEqual(
      ["2026-03-05T10", "2026-03-05T11"].map((hour) => ({
        hour,
        views: views.filter((event) => event.hour === hour).length,
        visitors: visitorsIn(hour),
      })),
    );
  });

  it("are added by one server only when two pass at once", async () => {
    const { analytics } = blog.services;
    await countSome(0);
    await analytics.rollUp();
    blog.clock.advance(10_000);
    await Promise.all([analytics.rollUp(), analytics.rollUp(), analytics.rollUp()]);
    expect(await rolledUp(false)).toEqual(expectedFromRaw(await raw()));
  });
});
