// The analytics figures of `npm run bench` (or alone, after a build: `node bench/analytics.ts`),
// docs/decisions/0016-analytics.md. Printed:
// - the production server on SQLite: beacons a second (target ≥ 2,000), a cached reader's page's
//   latency idle and under 2,000 beacons a second, and cached-page throughput with counting on
//   against off (target ≥ 0.9×);
// - the dashboard's queries (A2's report service, what the screen runs) over 10 million raw
//   events and a year of rollups, on SQLite and PostgreSQL (target < 100 ms).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { sql } from "kysely";
import { ANALYTICS_SETTINGS_KEY } from "../domain/analytics.ts";
import { addDays, readAnalyticsRange } from "../domain/analytics-ranges.ts";
import { type DatabaseHandle, openDatabase } from "../server/kernel/db/connect.ts";
import { readRollupTail } from "../server/analytics/repositories/analytics.ts";
import { countVisitorsSince } from "../server/analytics/repositories/analytics-reports.ts";
import { writeSetting } from "../server/kernel/repositories/settings.ts";
import { createAnalyticsReports } from "../server/analytics/reports.ts";
import { SERVER_ENVIRONMENT, serverArguments } from "../scripts/server-process.ts";
import { pageLatency, stopServer, waitUntilUp } from "./demo-server.ts";
import { onScratchDatabases } from "./scratch-databases.ts";

const EVENTS = Number(process.env.BENCH_ANALYTICS_EVENTS ?? 10_000_000);
const PORT = Number(process.env.BENCH_ANALYTICS_PORT ?? 3297);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RETENTION_DAYS = 30;
const ROLLUP_DAYS = 400;
const PATHS = 2000;
/** Events not rolled up yet, as a minute of steady traffic leaves them: the dashboard adds them. */
const TAIL = 2000;
const RUNS = 5;
const BROWSER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";

function startBlog(filename: string, base: string): ChildProcess {
  return spawn(process.execPath, serverArguments(), {
    env: {
      ...SERVER_ENVIRONMENT,
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      SITE_URL: base,
      DATABASE_URL: `file:${filename}`,
      BLOG_DEMO: "1",
      LOG_LEVEL: "warn",
      // Each beacon speaks for its own reader through X-Forwarded-For, as behind a proxy.
      TRUST_PROXY: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * The CPU time a process has used, user and system: what the server spends, whatever the load
 * generator beside it on the same cores is doing. /proc counts in clock ticks of 1/100 s.
 */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function secondsFromNow(seconds: number): () => boolean {
  const until = performance.now() + seconds * 1000;
  return () => performance.now() > until;
}

/** Readers' beacons, each reader an address of its own (X-Forwarded-For), built once: autocannon cycles through them. */
function beaconRequests(base: string) {
  return Array.from({ length: 1000 }, (_, reader) => ({
    method: "POST" as const,
    headers: {
      "content-type": "text/plain;charset=UTF-8",
      origin: base,
      "user-agent": BROWSER,
      "x-forwarded-for": `10.0.${reader >> 8}.${reader & 255}`,
    },
    body: JSON.stringify({ p: `/blog/post-${reader % 500}`, r: "https://www.google.com/", w: 1280 }),
  }));
}

/** Beacons for `seconds`, as fast as they are answered or at `rate` a second. */
async function sendBeacons(base: string, seconds: number, rate?: number) {
  const result = await autocannon({
    url: `${base}/hit`,
    connections: 16,
    // Several beacons in flight on a connection, as from many readers behind one proxy: the load
    // generator, on the same two cores, then spends less per beacon than the server.
    pipelining: rate ? 1 : 4,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    requests: beaconRequests(base),
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`beacons: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { perSecond: result.requests.average, sent: result.requests.total };
}

async function cachedThroughput(url: string): Promise<number> {
  await autocannon({ url, connections: 32, duration: 1 });
  const result = await autocannon({ url, connections: 32, duration: SECONDS, headers: { "accept-encoding": "gzip" } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx`);
  return result.requests.average;
}

async function benchServer(): Promise<void> {
  const directory = mkdtempSync(path.join(tmpdir(), "blog-bench-analytics-"));
  const filename = path.join(directory, "blog.sqlite");
  const base = `http://127.0.0.1:${PORT}`;
  const setCounting = async (enabled: boolean) => {
    const handle = await openDatabase({ dialect: "sqlite", filename });
    await writeSetting(handle.db, ANALYTICS_SETTINGS_KEY, { enabled, retentionDays: RETENTION_DAYS });
    await handle.close();
  };
  /** Starts the server, runs `measure`, stops it (which writes the buffer). */
  const withServer = async <T>(measure: (server: ChildProcess) => Promise<T>): Promise<T> => {
    const server = startBlog(filename, base);
    try {
      await waitUntilUp(`${base}/healthz`, server);
      return await measure(server);
    } finally {
      await stopServer(server);
    }
  };
  try {
    // Cached pages, counting on and off, twice each in turn: the best of each, as the machine is shared.
    const throughput = { on: 0, off: 0 };
    // The first start makes and migrates the database the settings are written to.
    await withServer(async () => {});
    for (const enabled of [true, false, true, false]) {
      await setCounting(enabled);
      const figure = await withServer(() => cachedThroughput(`${base}/`));
      const key = enabled ? "on" : "off";
      throughput[key] = Math.max(throughput[key], figure);
    }
    await setCounting(true);

    const { beacons, cpuPerBeacon, sent, idle, busy } = await withServer(async (server) => {
      const idleLatency = await pageLatency(`${base}/`, secondsFromNow(3), 50);
      const cpuBefore = cpuSeconds(server.pid!);
      const flat = await sendBeacons(base, SECONDS);
      const cpuPerBeacon = (cpuSeconds(server.pid!) - cpuBefore) / flat.sent;
      let loaded = false;
      const during = pageLatency(`${base}/`, () => loaded, 50);
      const paced = await sendBeacons(base, SECONDS, 2000);
      loaded = true;
      return { beacons: flat, cpuPerBeacon, sent: flat.sent + paced.sent, idle: idleLatency, busy: await during };
    });
    const handle = await openDatabase({ dialect: "sqlite", filename });
    const stored = await handle.db
      .selectFrom("analytics_events")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    await handle.close();

    console.log(`\n=== Analytics: the production server on SQLite\n`);
    console.log(`| figure | measured | target |`);
    console.log(`|---|---|---|`);
    console.log(
      `| beacons/s, 16 connections × 4 in flight, ${SECONDS} s | ${beacons.perSecond.toFixed(0)} | ≥ 2,000 |`,
    );
    console.log(
      `| server CPU per beacon (what one core takes a second) | ${(cpuPerBeacon * 1e6).toFixed(0)} µs (${(1 / cpuPerBeacon).toFixed(0)}/s) | |`,
    );
    console.log(
      `| beacons stored after the stop / sent | ${Number(stored.count).toLocaleString("en-US")} / ${sent.toLocaleString("en-US")} | all |`,
    );
    console.log(`| cached / p50 / p99, idle | ${idle.p50.toFixed(1)} / ${idle.p99.toFixed(1)} ms | |`);
    console.log(
      `| cached / p50 / p99, 2,000 beacons/s | ${busy.p50.toFixed(1)} / ${busy.p99.toFixed(1)} ms | about idle |`,
    );
    console.log(
      `| cached / req/s, counting on / off | ${throughput.on.toFixed(0)} / ${throughput.off.toFixed(0)} = ${(throughput.on / throughput.off).toFixed(2)}× | ≥ 0.9× |`,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** 10 million events over the retention, written by the database itself; a year of rollups beside them. */
async function seed(handle: DatabaseHandle, today: string, now: Date): Promise<void> {
  const { db, dialect } = handle;
  // The newest event is now: "visitors now" reads the last five minutes' worth.
  const end = now.getTime();
  const spacing = (RETENTION_DAYS * 86_400) / EVENTS;
  const chunk = 1_000_000;
  for (let start = 0; start < EVENTS; start += chunk) {
    const count = Math.min(chunk, EVENTS - start);
    if (dialect === "sqlite") {
      await sql`
        insert into analytics_events (occurred_at, day, hour, kind, path, visitor_key, source, referrer_host,
          utm_source, utm_medium, utm_campaign, browser, os, device, screen, country)
        with recursive n(i) as (select ${start} union all select i + 1 from n where i < ${start + count - 1})
        select strftime('%Y-%m-%dT%H:%M:%SZ', ${end / 1000} - i * ${spacing}, 'unixepoch'),
          strftime('%Y-%m-%d', ${end / 1000} - i * ${spacing}, 'unixepoch'),
          strftime('%Y-%m-%dT%H', ${end / 1000} - i * ${spacing}, 'unixepoch'),
          case when i % 50 = 0 then 'not_found' else 'view' end,
          '/blog/post-' || (abs(random()) % ${PATHS}), lower(hex(randomblob(16))),
          case i % 4 when 0 then 'Google' when 1 then 'news.example' else null end,
          case i % 4 when 0 then 'google.com' when 1 then 'news.example' else null end,
          null, null, case when i % 10 = 0 then 'spring' else null end,
          case i % 3 when 0 then 'Firefox' when 1 then 'Chrome' else 'Safari' end,
          case i % 3 when 0 then 'Windows' when 1 then 'Linux' else 'iOS' end,
          case i % 3 when 2 then 'mobile' else 'desktop' end,
          case i % 3 when 2 then 'small' else 'large' end, null
        from n
      `.execute(db);
    } else {
      await sql`
        insert into analytics_events (occurred_at, day, hour, kind, path, visitor_key, source, referrer_host,
          utm_source, utm_medium, utm_campaign, browser, os, device, screen, country)
        select to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(t, 'YYYY-MM-DD'), to_char(t, 'YYYY-MM-DD"T"HH24'),
          case when i % 50 = 0 then 'not_found' else 'view' end,
          '/blog/post-' || floor(random() * ${PATHS})::int, md5(random()::text),
          case i % 4 when 0 then 'Google' when 1 then 'news.example' else null end,
          case i % 4 when 0 then 'google.com' when 1 then 'news.example' else null end,
          null, null, case when i % 10 = 0 then 'spring' else null end,
          case i % 3 when 0 then 'Firefox' when 1 then 'Chrome' else 'Safari' end,
          case i % 3 when 0 then 'Windows' when 1 then 'Linux' else 'iOS' end,
          case i % 3 when 2 then 'mobile' else 'desktop' end,
          case i % 3 when 2 then 'small' else 'large' end, null
        from generate_series(${start}::bigint, ${start + count - 1}::bigint) as i,
          lateral (select (to_timestamp(${end / 1000}::double precision - i * ${spacing}::double precision) at time zone 'UTC') as t) as at
      `.execute(db);
    }
  }

  const values: Record<string, string[]> = {
    total: [""],
    path: Array.from({ length: PATHS }, (_, index) => `/blog/post-${index}`),
    source: ["", "Google", "news.example", ...Array.from({ length: 40 }, (_, index) => `site-${index}.example`)],
    campaign: ["spring", "autumn"],
    browser: ["Firefox", "Chrome", "Safari", "Edge"],
    os: ["Windows", "Linux", "iOS", "Android", "macOS"],
    device: ["desktop", "mobile", "tablet"],
    screen: ["small", "medium", "large"],
    not_found: Array.from({ length: 50 }, (_, index) => `/missing-${index}`),
  };
  const rows = Object.entries(values).flatMap(([dimension, list]) => list.map((value) => ({ dimension, value })));
  const monthly = new Map<
    string,
    { month: string; dimension: string; value: string; views: number; visitors: number }
  >();
  for (let back = 0; back < ROLLUP_DAYS; back += 1) {
    const day = addDays(today, -back);
    const daily = rows.map((row, index) => ({
      day,
      ...row,
      views: 1 + ((index * 7919 + back) % 300),
      visitors: 1 + ((index * 31 + back) % 200),
    }));
    for (let start = 0; start < daily.length; start += 500) {
      await db
        .insertInto("analytics_daily")
        .values(daily.slice(start, start + 500))
        .execute();
    }
    const hourly = Array.from({ length: 24 }, (_, hour) => ({
      hour: `${day}T${String(hour).padStart(2, "0")}`,
      views: 400 + hour,
      visitors: 300 + hour,
    }));
    await db.insertInto("analytics_hourly").values(hourly).execute();
    for (const row of daily) {
      const key = `${day.slice(0, 7)}|${row.dimension}|${row.value}`;
      const sum = monthly.get(key) ?? {
        month: day.slice(0, 7),
        dimension: row.dimension,
        value: row.value,
        views: 0,
        visitors: 0,
      };
      monthly.set(key, { ...sum, views: sum.views + row.views, visitors: sum.visitors + row.visitors });
    }
  }
  const months = [...monthly.values()];
  for (let start = 0; start < months.length; start += 500) {
    await db
      .insertInto("analytics_monthly")
      .values(months.slice(start, start + 500))
      .execute();
  }
  const max = await db
    .selectFrom("analytics_events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirstOrThrow();
  const through = Number(max.id) - TAIL;
  await db
    .insertInto("analytics_rollup_state")
    .values({ name: "events", through_id: through, seen_id: through, seen_at: new Date().toISOString() })
    .execute();
  if (dialect === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
}

async function timed<T>(work: () => Promise<T>): Promise<{ median: number; worst: number }> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(RUNS / 2)]!, worst: times.at(-1)! };
}

async function benchQueries(): Promise<void> {
  await onScratchDatabases("analytics", async (handle) => {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const started = performance.now();
    await seed(handle, today, now);
    const seeded = (performance.now() - started) / 1000;
    const reports = createAnalyticsReports({ db: handle.db, now: () => now });
    const range = (key: string) => {
      const reading = readAnalyticsRange({ range: key, from: "", to: "" }, today);
      if (!reading.ok) throw new Error(reading.message);
      return reading.value;
    };
    console.log(
      `\n=== Analytics dashboard on ${handle.dialect}: ${EVENTS.toLocaleString("en-US")} raw events (${TAIL.toLocaleString("en-US")} not rolled up), ${ROLLUP_DAYS} days of rollups (seeded in ${seeded.toFixed(0)} s)\n`,
    );
    console.log(`| query | median | worst of ${RUNS} | target |`);
    console.log(`|---|---|---|---|`);
    const print = (label: string, figure: { median: number; worst: number }) =>
      console.log(`| ${label} | ${figure.median.toFixed(1)} ms | ${figure.worst.toFixed(1)} ms | < 100 ms |`);
    for (const key of ["today", "7d", "30d", "12m"]) {
      print(`report, ${key}`, await timed(() => reports.report(range(key), "UTC")));
    }
    print(
      `the tail alone (readRollupTail, ${TAIL.toLocaleString("en-US")} events)`,
      await timed(() => readRollupTail(handle.db)),
    );
    print(
      "visitors now alone (last 5 minutes)",
      await timed(() => countVisitorsSince(handle.db, new Date(now.getTime() - 5 * 60_000).toISOString())),
    );
    print("a post's 30 days (editor)", await timed(() => reports.postViews("/blog/post-7", "UTC")));
    print(
      "CSV export, 30 days",
      await timed(async () => {
        for await (const _chunk of reports.exportCsv(range("30d"))) void _chunk;
      }),
    );
  });
}

export async function benchAnalytics(part?: "server" | "queries"): Promise<void> {
  if (part !== "queries") await benchServer();
  if (part !== "server") await benchQueries();
}

// `node bench/analytics.ts server` or `… queries` runs one half.
if (import.meta.main)
  await benchAnalytics(process.argv[2] === "server" || process.argv[2] === "queries" ? process.argv[2] : undefined);
