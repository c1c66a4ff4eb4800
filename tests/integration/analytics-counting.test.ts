import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type KyselyPlugin, InsertQueryNode } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BeaconBody } from "../../domain/analytics.ts";
import { openCountryLookup } from "../../server/analytics/geoip.ts";
import { recogniseOutage } from "../../server/kernel/errors.ts";
import { createAnalytics, type BeaconRequest } from "../../server/analytics/service.ts";
import { countryDatabase } from "../support/geoip-fixture.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

const DAY = 24 * 60 * 60 * 1000;
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

function beacon(body: Partial<BeaconBody>, overrides: Partial<BeaconRequest> = {}): BeaconRequest {
  return {
    body: { p: "/", r: "", w: 1280, ...body },
    address: "203.0.113.7",
    userAgent: FIREFOX,
    optedOut: false,
    signedIn: false,
    ...overrides,
  };
}

describe.each(testDialects())("analytics counting on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const events = () => blog.handle.db.selectFrom("analytics_events").selectAll().orderBy("id").execute();
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts a reader's view with what the rollups need, and never the address", async () => {
    const { analytics } = blog.services;
    expect(
      await analytics.countView(
        beacon(
          {
            p: "/posts/hello?utm_source=letter&utm_medium=email&utm_campaign=spring",
            r: "https://www.google.co.uk/",
            w: 390,
          },
          { userAgent: IPHONE },
        ),
      ),
    ).toBe("counted");
    await analytics.countView(beacon({ p: "/missing", k: "nf", r: "https://friend.example/links" }));
    await analytics.flush();

    const [view, notFound] = await events();
    expect(view).toMatchObject({
      occurred_at: "2026-03-05T10:00:00.000Z",
      day: "2026-03-05",
      hour: "2026-03-05T10",
      kind: "view",
      path: "/posts/hello",
      source: "Google",
      referrer_host: "google.co.uk",
      utm_source: "letter",
      utm_medium: "email",
      utm_campaign: "spring",
      browser: "Safari",
      os: "iOS",
      device: "mobile",
      screen: "small",
      country: null,
    });
    expect(view?.visitor_key).toMatch(/^[0-9a-f]{32}$/);
    expect(notFound).toMatchObject({ kind: "not_found", path: "/missing", source: "friend.example", screen: "large" });
    expect(JSON.stringify(await events())).not.toContain("203.0.113.7");
  });

  it("leaves out crawlers, scripts, opted-out readers, the signed-in writer, the admin and a blog that turned counting off", async () => {
    const { analytics } = blog.services;
    expect(await analytics.countView(beacon({}, { userAgent: GOOGLEBOT }))).toBe("not a reader");
    expect(await analytics.countView(beacon({}, { userAgent: "curl/8.5.0" }))).toBe("not a reader");
    expect(await analytics.countView(beacon({}, { userAgent: "" }))).toBe("not a reader");
    expect(await analytics.countView(beacon({}, { optedOut: true }))).toBe("opted out");
    expect(await analytics.countView(beacon({}, { signedIn: true }))).toBe("signed in");
    expect(await analytics.countView(beacon({ p: "/admin/posts" }))).toBe("not a reader");
    await analytics.saveSettings({ enabled: false, retentionDays: 30 });
    expect(await analytics.countView(beacon({}))).toBe("off");
    await analytics.flush();
    expect(await events()).toEqual([]);
  });

  it("tells its listeners when counting is turned on or off, here or on another server", async () => {
    const { analytics } = blog.services;
    const heard: boolean[] = [];
    analytics.onChange((settings) => heard.push(settings.enabled));
    await analytics.settings();
    await analytics.saveSettings({ enabled: false, retentionDays: 30 });
    const otherServer = createAnalytics({
      db: blog.handle.db,
      now: blog.clock.now,
      readTimeZone: async () => "UTC",
      siteHost: "blog.test",
    });
    await otherServer.saveSettings({ enabled: true, retentionDays: 30 });
    blog.clock.advance(1000);
    await analytics.settings();
    expect(heard).toEqual([false, true]);
  });

  it("tells its listeners nothing when a save leaves counting as it was", async () => {
    const { analytics } = blog.services;
    const heard: boolean[] = [];
    analytics.onChange((settings) => heard.push(settings.enabled));
    await analytics.saveSettings({ enabled: true, retentionDays: 7 });
    await analytics.saveSettings({ enabled: true, retentionDays: 90 });
    expect(heard).toEqual([]);
    await analytics.saveSettings({ enabled: false, retentionDays: 90 });
    await analytics.saveSettings({ enabled: false, retentionDays: 30 });
    expect(heard).toEqual([false]);
  });

  it("notices another server's change at the next rollup pass, with no reader asking", async () => {
    const { analytics } = blog.services;
    const heard: boolean[] = [];
    analytics.onChange((settings) => heard.push(settings.enabled));
    await analytics.settings();
    const otherServer = createAnalytics({
      db: blog.handle.db,
      now: blog.clock.now,
      readTimeZone: async () => "UTC",
      siteHost: "blog.test",
    });
    await otherServer.saveSettings({ enabled: false, retentionDays: 30 });
    blog.clock.advance(60_000);
    await analytics.rollUp();
    expect(heard).toEqual([false]);
  });

  it("writes what is buffered when it stops", async () => {
    const { analytics } = blog.services;
    analytics.start({ error: () => {}, warn: () => {} });
    await analytics.countView(beacon({ p: "/a" }));
    await analytics.countView(beacon({ p: "/b" }));
    await analytics.stop();
    expect((await events()).map((event) => event.path)).toEqual(["/a", "/b"]);
    expect(analytics.buffered).toBe(0);
  });

  it("keeps at most the buffer's bound in memory and drops the rest", async () => {
    const analytics = createAnalytics({
      db: blog.handle.db,
      now: blog.clock.now,
      readTimeZone: async () => "UTC",
      siteHost: "blog.test",
      tuning: { bufferMax: 2 },
    });
    const outcomes = [];
    for (const path of ["/a", "/b", "/c"]) outcomes.push(await analytics.countView(beacon({ p: path })));
    expect(outcomes).toEqual(["counted", "counted", "dropped"]);
    const warnings: string[] = [];
    analytics.start({ error: () => {}, warn: (message) => warnings.push(message) });
    await analytics.stop();
    expect(await events()).toHaveLength(2);
    expect(warnings).toEqual(["analytics buffer full: 1 events dropped"]);
  });

  it("leaves an outage's retries to the timer: one log line a pass, however many beacons arrive", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let down = false;
    let writes = 0;
    const outage: KyselyPlugin = {
      transformQuery({ node }) {
        if (InsertQueryNode.is(node) && node.into?.table.identifier.name === "analytics_events") {
          writes += 1;
          // A plugin runs above the driver, so it throws what the driver answers a refused connection with.
          const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
          if (down) throw recogniseOutage(refused);
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const analytics = createAnalytics({
      db: blog.handle.db.withPlugin(outage),
      now: blog.clock.now,
      readTimeZone: async () => "UTC",
      siteHost: "blog.test",
      tuning: { flushRows: 2, flushMs: 1000, rollupMs: 60 * 60_000 },
    });
    const reported: string[] = [];
    let heard = () => {};
    const nextReport = () => new Promise<void>((resolve) => (heard = resolve));
    analytics.start({
      error: (_error, message) => {
        reported.push(message);
        heard();
      },
      warn: () => {},
    });
    await analytics.countView(beacon({ p: "/before" })); // the day's salt, made before the outage
    down = true;
    for (let pass = 1; pass <= 3; pass += 1) {
      for (let index = 0; index < 20; index += 1) await analytics.countView(beacon({ p: `/${pass}/${index}` }));
      await new Promise((resolve) => setTimeout(resolve, 20)); // what the beacons started has failed by now
      const report = nextReport();
      await vi.advanceTimersByTimeAsync(1000);
      await report;
      expect(reported).toEqual(Array.from({ length: pass }, () => "writing analytics events failed"));
      expect(writes).toBeLessThanOrEqual(2 * pass);
    }
    down = false;
    await analytics.stop();
    expect(await events()).toHaveLength(61);
    expect(reported).toHaveLength(3);
  });

  it("cannot link the same reader across two days: yesterday's salt is gone", async () => {
    const { analytics } = blog.services;
    await analytics.countView(beacon({}));
    await analytics.flush();
    blog.clock.advance(DAY);
    await analytics.purgeExpired();
    await analytics.countView(beacon({}));
    await analytics.flush();

    const [first, second] = await events();
    expect(first?.day).toBe("2026-03-05");
    expect(second?.day).toBe("2026-03-06");
    expect(second?.visitor_key).not.toBe(first?.visitor_key);
    const salts = await blog.handle.db.selectFrom("analytics_salts").selectAll().execute();
    expect(salts.map((salt) => salt.day)).toEqual(["2026-03-06"]);
  });

  it("counts days and hours in the site's time zone", async () => {
    const analytics = createAnalytics({
      db: blog.handle.db,
      now: () => new Date("2026-03-05T23:30:00Z"),
      readTimeZone: async () => "Europe/Paris",
      siteHost: "blog.test",
    });
    await analytics.countView(beacon({}));
    await analytics.flush();
    expect((await events())[0]).toMatchObject({ day: "2026-03-06", hour: "2026-03-06T00" });
  });

  it("records a country only when the owner gives a GeoIP file", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "blog-geoip-"));
    const geoipFile = path.join(directory, "country.mmdb");
    writeFileSync(geoipFile, countryDatabase("203.0.113.0/24", "NZ"));
    const analytics = createAnalytics({
      db: blog.handle.db,
      now: blog.clock.now,
      readTimeZone: async () => "UTC",
      siteHost: "blog.test",
      countryOf: await openCountryLookup(geoipFile),
    });
    await analytics.countView(beacon({}));
    await blog.services.analytics.countView(beacon({ p: "/other" }));
    await analytics.flush();
    await blog.services.analytics.flush();
    expect((await events()).map((event) => event.country)).toEqual(["NZ", null]);
    rmSync(directory, { recursive: true, force: true });
  });

  it("keeps raw events for the retention and the rollups for good", async () => {
    const { analytics } = blog.services;
    await analytics.saveSettings({ enabled: true, retentionDays: 2 });
    await analytics.countView(beacon({ p: "/old" }));
    await analytics.flush();
    await analytics.rollUp();
    blog.clock.advance(10_000);
    await analytics.rollUp();
    blog.clock.advance(3 * DAY);
    await analytics.countView(beacon({ p: "/new" }));
    await analytics.flush();
    await analytics.purgeExpired();

    expect((await events()).map((event) => event.path)).toEqual(["/new"]);
    const daily = await blog.handle.db
      .selectFrom("analytics_daily")
      .selectAll()
      .where("dimension", "=", "path")
      .execute();
    expect(daily).toEqual([{ day: "2026-03-05", dimension: "path", value: "/old", views: 1, visitors: 1 }]);
  });

  it("counts distinct feed fetchers a day and the subscribers aggregators state", async () => {
    const { analytics } = blog.services;
    const fetch = (userAgent: string, address: string) =>
      analytics.countFeedFetch({ userAgent, address, optedOut: false });
    await fetch(
      "Feedly/1.0 (+http://www.feedly.com/fetcher.html; 40 subscribers; like FeedFetcher-Google)",
      "198.51.100.1",
    );
    await fetch(
      "Feedly/1.0 (+http://www.feedly.com/fetcher.html; 42 subscribers; like FeedFetcher-Google)",
      "198.51.100.2",
    );
    await fetch(
      "Feedly/1.0 (+http://www.feedly.com/fetcher.html; 42 subscribers; like FeedFetcher-Google)",
      "198.51.100.2",
    );
    await fetch("NetNewsWire (RSS Reader; https://netnewswire.com/)", "203.0.113.1");
    await fetch("NetNewsWire (RSS Reader; https://netnewswire.com/)", "203.0.113.2");
    expect(await fetch(GOOGLEBOT, "66.249.66.1")).toBe(false);
    await analytics.flush();
    await analytics.rollUp();

    const daily = await blog.handle.db.selectFrom("analytics_feed_daily").selectAll().orderBy("fetcher").execute();
    expect(daily).toEqual([
      { day: "2026-03-05", fetcher: "Feedly", fetchers: 2, subscribers: 42 },
      { day: "2026-03-05", fetcher: "NetNewsWire", fetchers: 2, subscribers: 2 },
    ]);
  });
});
