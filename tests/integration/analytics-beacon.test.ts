import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { countFeedFetches, createBeaconRoute } from "../../server/analytics/http.ts";
import { createSessionCookie } from "../../server/kernel/session-cookie.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

const SECRET = "a session secret of at least thirty-two characters";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

describe.each(testDialects())("the beacon endpoint on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  let server: Server | undefined;
  let base = "";

  beforeEach(() => {
    const app = express();
    app.set("trust proxy", 1);
    app.use(countFeedFetches(blog.services.analytics));
    app.use(
      createBeaconRoute({
        analytics: blog.services.analytics,
        sessionSecret: SECRET,
        siteUrl: "http://blog.test",
        rate: { maxHits: 5, windowMs: 60_000 },
      }),
    );
    app.use((_req, res) => {
      res.status(404).end();
    });
    return new Promise<void>((resolve) => {
      server = app.listen(0, "127.0.0.1", () => {
        base = `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
        resolve();
      });
    });
  });
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  let nextAddress = 0;
  /** From an address of its own unless told: the rate limit is the concern of one test only. */
  function send(body: string, headers: Record<string, string> = {}, address = `203.0.113.${(nextAddress += 1)}`) {
    return fetch(`${base}/hit`, {
      method: "POST",
      body,
      headers: {
        "content-type": "text/plain;charset=UTF-8",
        origin: "http://blog.test",
        "user-agent": CHROME,
        "x-forwarded-for": address,
        ...headers,
      },
    });
  }

  async function counted(): Promise<string[]> {
    await blog.services.analytics.flush();
    const rows = await blog.handle.db.selectFrom("analytics_events").select("path").orderBy("id").execute();
    return rows.map((row) => row.path);
  }

  it("counts a reader's beacon and answers 204 with no cookie", async () => {
    const response = await send(JSON.stringify({ p: "/blog/hello", r: "https://duckduckgo.com/", w: 1280 }));
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await counted()).toEqual(["/blog/hello"]);
  });

  it("answers 204 but counts nothing for opted-out readers, the signed-in writer and crawlers", async () => {
    const signed = (await createSessionCookie({ secret: SECRET, secure: false }).issue("token")).split(";")[0] ?? "";
    const body = JSON.stringify({ p: "/", r: "", w: 800 });
    const answers = [
      await send(body, { "sec-gpc": "1" }),
      await send(body, { dnt: "1" }),
      await send(body, { cookie: signed }),
      await send(body, { "user-agent": "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)" }),
      await send(body, { "user-agent": "python-requests/2.31" }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204, 204]);
    expect(await counted()).toEqual([]);
    // Anyone can send a cookie by that name: only one this server signed means the writer.
    await send(body, { cookie: "blog_session=forged.value" });
    expect(await counted()).toEqual(["/"]);
  });

  it("refuses malformed, oversized and foreign beacons with a 4xx", async () => {
    const answers = {
      notJson: (await send("{p:")).status,
      noPath: (await send(JSON.stringify({ r: "" }))).status,
      relativePath: (await send(JSON.stringify({ p: "blog" }))).status,
      array: (await send("[]")).status,
      empty: (await send("")).status,
      form: (await send("p=%2F", { "content-type": "application/x-www-form-urlencoded" })).status,
      oversized: (await send(JSON.stringify({ p: `/${"a".repeat(3000)}` }), {}, "203.0.113.10")).status,
      foreign: (await send(JSON.stringify({ p: "/" }), { origin: "https://elsewhere.example" }, "203.0.113.10")).status,
    };
    expect(answers).toEqual({
      notJson: 400,
      noPath: 400,
      relativePath: 400,
      array: 400,
      empty: 400,
      form: 415,
      oversized: 413,
      foreign: 403,
    });
    expect(await counted()).toEqual([]);
  });

  it("limits the beacons of one address with 429 and Retry-After, not the others'", async () => {
    const body = JSON.stringify({ p: "/", r: "", w: 800 });
    const statuses = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await send(body, {}, "192.0.2.1")).status);
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
    const limited = await send(body, {}, "192.0.2.1");
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await send(body, {}, "198.51.100.20")).status).toBe(204);
  });

  it("counts a feed's fetchers as the feed is served", async () => {
    const fetchFeed = (userAgent: string, address: string) =>
      fetch(`${base}/rss.xml`, { headers: { "user-agent": userAgent, "x-forwarded-for": address } });
    await fetchFeed("Feedly/1.0 (+http://www.feedly.com/fetcher.html; 12 subscribers)", "198.51.100.1");
    await fetchFeed("NetNewsWire (RSS Reader; https://netnewswire.com/)", "198.51.100.2");
    await fetch(`${base}/about`, { headers: { "user-agent": "NetNewsWire", "x-forwarded-for": "198.51.100.3" } });
    // The count is noted beside the answer, not before it.
    await vi.waitFor(async () => {
      await blog.services.analytics.flush();
      expect(await blog.handle.db.selectFrom("analytics_feed_fetches").select("fetcher").execute()).toHaveLength(2);
    });
    const rows = await blog.handle.db
      .selectFrom("analytics_feed_fetches")
      .select(["fetcher", "subscribers"])
      .orderBy("fetcher")
      .execute();
    expect(rows).toEqual([
      { fetcher: "Feedly", subscribers: 12 },
      { fetcher: "NetNewsWire", subscribers: null },
    ]);
  });
});
