import type { Insertable, Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { readAnalyticsRange } from "#domain/analytics-ranges.ts";
import type { AnalyticsDailyTable, Database } from "../../server/kernel/db/schema.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

// The test blog's clock starts at 2026-03-05T10:00:00Z.

function daily(day: string, dimension: string, value: string, views: number, visitors: number) {
  return { day, dimension, value, views, visitors } satisfies Insertable<AnalyticsDailyTable>;
}

function rangeOf(query: Partial<{ range: string; from: string; to: string }>, today = "2026-03-05") {
  const reading = readAnalyticsRange({ range: "", from: "", to: "", ...query }, today);
  if (!reading.ok) throw new Error(reading.message);
  return reading.value;
}

/** Daily rollup rows, and the monthly ones the rollup pass keeps beside them. */
async function insertRollups(db: Kysely<Database>, rows: Insertable<AnalyticsDailyTable>[]) {
  await db.insertInto("analytics_daily").values(rows).execute();
  const months = new Map<
    string,
    { month: string; dimension: string; value: string; views: number; visitors: number }
  >();
  for (const row of rows) {
    const key = `${row.day.slice(0, 7)} ${row.dimension} ${row.value}`;
    const sum = months.get(key) ?? {
      month: row.day.slice(0, 7),
      dimension: row.dimension,
      value: row.value,
      views: 0,
      visitors: 0,
    };
    sum.views += Number(row.views);
    sum.visitors += Number(row.visitors);
    months.set(key, sum);
  }
  await db
    .insertInto("analytics_monthly")
    .values([...months.values()])
    .execute();
}

async function insertEvent(
  db: Kysely<Database>,
  {
    at,
    visitor,
    kind = "view",
    path = "/",
  }: { at: string; visitor: string; kind?: "view" | "not_found"; path?: string },
) {
  await db
    .insertInto("analytics_events")
    .values({
      occurred_at: at,
      day: at.slice(0, 10),
      hour: at.slice(0, 13),
      kind,
      path,
      visitor_key: visitor,
      source: null,
      referrer_host: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      browser: "Firefox",
      os: "Linux",
      device: "desktop",
      screen: "large",
      country: null,
    })
    .execute();
}

describe.each(testDialects())("the Analytics screen's figures on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("sums a range's days against the period before, day by day with empty days as 0", async () => {
    const { handle, services } = blog;
    await insertRollups(handle.db, [
      daily("2026-02-25", "total", "", 100, 40),
      daily("2026-02-26", "total", "", 50, 20),
      daily("2026-02-27", "total", "", 1, 1),
      daily("2026-03-01", "total", "", 60, 30),
      daily("2026-03-05", "total", "", 52, 10),
      daily("2026-03-05", "path", "/blog/a", 40, 8),
      daily("2026-03-06", "total", "", 999, 999),
    ]);
    const report = await services.analyticsReports.report(rangeOf({ range: "7d" }), "UTC");
    expect(report.totals).toEqual({ views: 113, visitors: 41 });
    expect(report.previous).toEqual({ views: 150, visitors: 60 });
    expect(report.series).toEqual([
      { bucket: "2026-02-27", views: 1, visitors: 1 },
      { bucket: "2026-02-28", views: 0, visitors: 0 },
      { bucket: "2026-03-01", views: 60, visitors: 30 },
      { bucket: "2026-03-02", views: 0, visitors: 0 },
      { bucket: "2026-03-03", views: 0, visitors: 0 },
      { bucket: "2026-03-04", views: 0, visitors: 0 },
      { bucket: "2026-03-05", views: 52, visitors: 10 },
    ]);

    const year = await services.analyticsReports.report(rangeOf({ range: "12m" }), "UTC");
    expect(year.series).toHaveLength(12);
    expect(year.series.slice(-2)).toEqual([
      { bucket: "2026-02", views: 151, visitors: 61 },
      { bucket: "2026-03", views: 112, visitors: 40 },
    ]);
  });

  it("reads whole months from the monthly rollup and the days around them from the daily one", async () => {
    const { handle, services } = blog;
    await insertRollups(handle.db, [
      daily("2025-03-31", "path", "/a", 500, 500),
      daily("2025-06-10", "path", "/a", 10, 5),
      daily("2025-07-01", "path", "/b", 7, 7),
      daily("2025-07-31", "total", "", 7, 7),
      daily("2026-03-02", "path", "/a", 1, 1),
      daily("2026-03-04", "path", "/c", 3, 3),
      daily("2026-03-04", "total", "", 4, 4),
    ]);
    const paths = (report: { lists: { dimension: string; rows: unknown[] }[] }) =>
      report.lists.find((list) => list.dimension === "path")?.rows;
    const year = await services.analyticsReports.report(rangeOf({ range: "12m" }), "UTC");
    expect(paths(year)).toEqual([
      { value: "/a", views: 11, visitors: 6 },
      { value: "/b", views: 7, visitors: 7 },
      { value: "/c", views: 3, visitors: 3 },
    ]);
    expect(year.totals).toEqual({ views: 11, visitors: 11 });
    const summer = await services.analyticsReports.report(rangeOf({ from: "2025-06-15", to: "2025-07-31" }), "UTC");
    expect(paths(summer)).toEqual([{ value: "/b", views: 7, visitors: 7 }]);
    let text = "";
    for await (const chunk of services.analyticsReports.exportCsv({ from: "2025-06-01", to: "2026-03-03" })) {
      text += chunk;
    }
    expect(text).toBe("path,views,visitors\r\n/a,11,6\r\n/b,7,7\r\n");
  });

  it("shows today by the hour, and the visitors of the last five minutes", async () => {
    const { handle, services } = blog;
    await handle.db
      .insertInto("analytics_hourly")
      .values([
        { hour: "2026-03-04T23", views: 7, visitors: 7 },
        { hour: "2026-03-05T08", views: 3, visitors: 2 },
        { hour: "2026-03-05T09", views: 4, visitors: 1 },
      ])
      .execute();
    await insertEvent(handle.db, { at: "2026-03-05T09:54:00.000Z", visitor: "gone" });
    await insertEvent(handle.db, { at: "2026-03-05T09:56:00.000Z", visitor: "reader-1" });
    await insertEvent(handle.db, { at: "2026-03-05T09:58:00.000Z", visitor: "reader-1" });
    await insertEvent(handle.db, { at: "2026-03-05T09:59:00.000Z", visitor: "reader-2" });
    await insertEvent(handle.db, { at: "2026-03-05T09:59:30.000Z", visitor: "lost", kind: "not_found" });
    await insertEvent(handle.db, { at: "2026-03-05T10:30:00.000Z", visitor: "later" });
    // All of them rolled up already.
    await handle.db
      .insertInto("analytics_rollup_state")
      .values({ name: "events", through_id: 6, seen_id: 6, seen_at: "2026-03-05T10:00:00.000Z" })
      .execute();

    const report = await services.analyticsReports.report(rangeOf({}), "UTC");
    expect(report.series).toHaveLength(24);
    expect(report.series.slice(7, 11)).toEqual([
      { bucket: "2026-03-05T07", views: 0, visitors: 0 },
      { bucket: "2026-03-05T08", views: 3, visitors: 2 },
      { bucket: "2026-03-05T09", views: 4, visitors: 1 },
      { bucket: "2026-03-05T10", views: 0, visitors: 0 },
    ]);
    expect(report.visitorsNow).toBe(2);
  });

  it("ranks each list by views, ten a page, and keeps dimensions and days apart", async () => {
    const { handle, services } = blog;
    const paths = Array.from({ length: 12 }, (_, index) => daily("2026-03-04", "path", `/p/${index}`, 100 - index, 1));
    await insertRollups(handle.db, [
      ...paths,
      daily("2026-03-05", "path", "/p/11", 200, 5),
      daily("2026-02-01", "path", "/old", 5000, 5000),
      daily("2026-03-04", "source", "Google", 9, 3),
      daily("2026-03-05", "source", "Google", 1, 1),
      daily("2026-03-05", "source", "Mastodon", 4, 4),
      daily("2026-03-05", "not_found", "/missing", 2, 1),
    ]);
    const range = rangeOf({ range: "7d" });
    const first = await services.analyticsReports.report(range, "UTC");
    const list = (dimension: string, report = first) => report.lists.find((item) => item.dimension === dimension)!;
    expect(list("path").rows[0]).toEqual({ value: "/p/11", views: 289, visitors: 6 });
    expect(list("path").rows.map((row) => row.value)).toHaveLength(10);
    expect(list("path")).toMatchObject({ page: 1, hasMore: true });
    expect(list("source").rows).toEqual([
      { value: "Google", views: 10, visitors: 4 },
      { value: "Mastodon", views: 4, visitors: 4 },
    ]);
    expect(list("not_found").rows).toEqual([{ value: "/missing", views: 2, visitors: 1 }]);
    expect(list("browser")).toEqual({ dimension: "browser", page: 1, rows: [], hasMore: false });

    const second = await services.analyticsReports.report(range, "UTC", { dimension: "path", page: 2 });
    expect(list("path", second)).toMatchObject({
      page: 2,
      hasMore: false,
      rows: [
        { value: "/p/9", views: 91 },
        { value: "/p/10", views: 90 },
      ],
    });
    expect(list("source", second).page).toBe(1);
  });

  it("counts subscribers confirmed and followers accepted in each day of the site's time zone", async () => {
    const { handle, services } = blog;
    const subscriber = (id: string, confirmedAt: string | null, state: "active" | "pending" | "unsubscribed") => ({
      id,
      email: `${id}@example.com`,
      state,
      source: "form" as const,
      created_at: "2026-02-01T00:00:00.000Z",
      confirmed_at: confirmedAt,
      unsubscribed_at: null,
    });
    await handle.db
      .insertInto("subscribers")
      .values([
        // 00:30 on 5 March in Paris.
        subscriber("late", "2026-03-04T23:30:00.000Z", "active"),
        subscriber("noon", "2026-03-04T11:00:00.000Z", "unsubscribed"),
        subscriber("waiting", null, "pending"),
        subscriber("before", "2026-02-20T11:00:00.000Z", "active"),
      ])
      .execute();
    const follower = (id: string, createdAt: string, state: "accepted" | "pending") => ({
      id,
      actor_url: `https://social.example/users/${id}`,
      handle: `@${id}@social.example`,
      server: "social.example",
      inbox_url: `https://social.example/users/${id}/inbox`,
      shared_inbox_url: null,
      follow_activity_id: null,
      state,
      created_at: createdAt,
    });
    await handle.db
      .insertInto("fediverse_followers")
      .values([
        follower("ada", "2026-03-03T12:00:00.000Z", "accepted"),
        follower("bob", "2026-03-03T13:00:00.000Z", "pending"),
      ])
      .execute();

    const report = await services.analyticsReports.report(rangeOf({ range: "7d" }), "Europe/Paris");
    const counted = (points: { bucket: string; count: number }[]) =>
      Object.fromEntries(points.filter((point) => point.count > 0).map((point) => [point.bucket, point.count]));
    expect(report.subscribers).toHaveLength(7);
    expect(counted(report.subscribers)).toEqual({ "2026-03-04": 1, "2026-03-05": 1 });
    expect(counted(report.followers)).toEqual({ "2026-03-03": 1 });
  });

  it("gives each feed reader's subscribers on its last day in the range", async () => {
    const { handle, services } = blog;
    const feed = (day: string, fetcher: string, fetchers: number, subscribers: number) => ({
      day,
      fetcher,
      fetchers,
      subscribers,
    });
    await handle.db
      .insertInto("analytics_feed_daily")
      .values([
        feed("2026-02-10", "Feedly", 1, 999),
        feed("2026-03-03", "Feedly", 1, 40),
        feed("2026-03-04", "Feedly", 1, 42),
        feed("2026-03-04", "NetNewsWire", 3, 3),
        feed("2026-03-05", "NetNewsWire", 2, 2),
      ])
      .execute();
    const week = await services.analyticsReports.report(rangeOf({ range: "7d" }), "UTC");
    expect(week.feedReaders).toEqual([
      { fetcher: "Feedly", subscribers: 42, fetchers: 1, day: "2026-03-04" },
      { fetcher: "NetNewsWire", subscribers: 2, fetchers: 2, day: "2026-03-05" },
    ]);
    const today = await services.analyticsReports.report(rangeOf({}), "UTC");
    expect(today.feedReaders).toEqual([{ fetcher: "NetNewsWire", subscribers: 2, fetchers: 2, day: "2026-03-05" }]);
  });

  it("gives a post's views over the last 30 days", async () => {
    const { handle, services } = blog;
    await insertRollups(handle.db, [
      daily("2026-02-03", "path", "/blog/hello", 1000, 1000),
      daily("2026-02-04", "path", "/blog/hello", 5, 3),
      daily("2026-03-05", "path", "/blog/hello", 7, 4),
      daily("2026-03-05", "path", "/blog/other", 9, 9),
    ]);
    expect(await services.analyticsReports.postViews("/blog/hello", "UTC")).toEqual({ views: 12, visitors: 7 });
    expect(await services.analyticsReports.postViews("/blog/none", "UTC")).toEqual({ views: 0, visitors: 0 });
  });

  it("adds the events not rolled up yet, each visitor counted once a day, so a new page can overtake", async () => {
    const { handle, services } = blog;
    await insertEvent(handle.db, { at: "2026-03-05T09:00:00.000Z", visitor: "ada", path: "/a" });
    await insertEvent(handle.db, { at: "2026-03-05T09:01:00.000Z", visitor: "bob", path: "/b" });
    // The rollup pass has added those two.
    await handle.db
      .insertInto("analytics_rollup_state")
      .values({ name: "events", through_id: 2, seen_id: 2, seen_at: "2026-03-05T09:02:00.000Z" })
      .execute();
    await insertRollups(handle.db, [
      daily("2026-03-05", "total", "", 2, 2),
      daily("2026-03-05", "path", "/a", 1, 1),
      daily("2026-03-05", "path", "/b", 1, 1),
    ]);
    await handle.db.insertInto("analytics_hourly").values({ hour: "2026-03-05T09", views: 2, visitors: 2 }).execute();
    // Not yet: ada again, and a new reader on a new page three times.
    await insertEvent(handle.db, { at: "2026-03-05T09:30:00.000Z", visitor: "ada", path: "/a" });
    for (const minute of ["40", "41", "42"]) {
      await insertEvent(handle.db, { at: `2026-03-05T09:${minute}:00.000Z`, visitor: "cy", path: "/c" });
    }

    const report = await services.analyticsReports.report(rangeOf({}), "UTC");
    expect(report.totals).toEqual({ views: 6, visitors: 3 });
    expect(report.series[9]).toEqual({ bucket: "2026-03-05T09", views: 6, visitors: 3 });
    expect(report.lists.find((list) => list.dimension === "path")?.rows).toEqual([
      { value: "/c", views: 3, visitors: 1 },
      { value: "/a", views: 2, visitors: 1 },
      { value: "/b", views: 1, visitors: 1 },
    ]);
    const week = await services.analyticsReports.report(rangeOf({ range: "7d" }), "UTC");
    expect(week.series.at(-1)).toEqual({ bucket: "2026-03-05", views: 6, visitors: 3 });
    expect(await services.analyticsReports.postViews("/a", "UTC")).toEqual({ views: 2, visitors: 1 });
    let text = "";
    for await (const chunk of services.analyticsReports.exportCsv({ from: "2026-03-05", to: "2026-03-05" })) {
      text += chunk;
    }
    expect(text).toBe("path,views,visitors\r\n/c,3,1\r\n/a,2,1\r\n/b,1,1\r\n");
  });

  it("exports every path of a range as CSV, most viewed first, with formulas kept as text", async () => {
    const { handle, services } = blog;
    await insertRollups(handle.db, [
      daily("2026-03-04", "path", "/blog/a", 3, 2),
      daily("2026-03-05", "path", "/blog/a", 2, 2),
      daily("2026-03-05", "path", '=HYPERLINK("http://evil.example")', 1, 1),
      daily("2026-03-05", "path", "/blog/b,c", 4, 1),
      daily("2026-03-05", "source", "Google", 50, 50),
    ]);
    let text = "";
    for await (const chunk of services.analyticsReports.exportCsv({ from: "2026-03-04", to: "2026-03-05" })) {
      text += chunk;
    }
    expect(text).toBe(
      'path,views,visitors\r\n/blog/a,5,4\r\n"/blog/b,c",4,1\r\n"\'=HYPERLINK(""http://evil.example"")",1,1\r\n',
    );
  });
});
