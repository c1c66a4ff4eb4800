// `npm run bench` (builds first): page weight per public route, then every public route of the
// production server at 100,000 posts on SQLite and on PostgreSQL, cached and uncached, against
// a static server sending the same bytes in the same run. Ratios are what to compare: the
// absolute figures depend on the machine and on what else it is doing. Last, the newsletter
// figure (bench/newsletter.ts): a send to 10,000 subscribers through a local SMTP server; and the
// fediverse figure (bench/fediverse.ts): one post to 1,000 followers on 100 servers, a local sink;
// and the analytics figures (bench/analytics.ts): beacons, and the dashboard over 10 million events.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import pg from "pg";
import { formatWeights, measurePages } from "./bundle-size.ts";
import { COMMON_WORD, RARE_WORD } from "./data.ts";
import { SERVER_ENVIRONMENT, serverArguments } from "../scripts/server-process.ts";
import { benchAnalytics } from "./analytics.ts";
import { stopServer, waitUntilUp } from "./demo-server.ts";
import { benchFediverse } from "./fediverse.ts";
import { benchNewsletter } from "./newsletter.ts";

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const PORT = Number(process.env.BENCH_PORT ?? 3290);
const STATIC_PORT = PORT + 1;
const HEADERS = { "accept-encoding": "gzip" };

interface Figures {
  perSecond: number;
}

async function load(url: string, connections: number, seconds: number): Promise<Figures> {
  const result = await autocannon({ url, connections, duration: seconds, headers: HEADERS });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers other than 2xx, ${result.errors} errors`);
  }
  return { perSecond: result.requests.average };
}

interface Memory {
  rss: number;
  /** RSS less file-backed pages (the `node` executable and shared libraries, shared by every process). */
  anonymous: number;
}

function memoryMegabytes(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+) kB`))?.[1] ?? Number.NaN) / 1024;
  return { rss: field("VmRSS"), anonymous: field("RssAnon") };
}

function startBlog(databaseUrl: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, serverArguments(), {
    env: {
      ...SERVER_ENVIRONMENT,
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      SITE_URL: `http://127.0.0.1:${PORT}`,
      DATABASE_URL: databaseUrl,
      BLOG_DEMO: "0",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

function fillDatabase(databaseUrl: string): void {
  const started = Date.now();
  const result = spawnSync(process.execPath, ["cli/blog.ts", "bench-data", "--posts", String(POSTS)], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error(`bench-data failed on ${databaseUrl}`);
  console.log(`  ${POSTS.toLocaleString("en-US")} posts written in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * What autovacuum leaves a live PostgreSQL database with, minutes after a bulk load: planner
 * statistics, and the visibility map that lets a count read the index alone.
 */
async function vacuumAnalyze(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("vacuum analyze");
  } finally {
    await client.end();
  }
}

async function publicRoutes(base: string): Promise<string[]> {
  const blog = await (await fetch(`${base}/blog`)).text();
  const post = blog.match(/href="(\/blog\/[A-Za-z0-9_-]+)"/)?.[1];
  if (!post) throw new Error("/blog lists no post");
  return [
    "/",
    "/blog",
    // A page halfway down the archive (24 posts a page).
    `/blog?page=${Math.max(1, Math.floor(POSTS / 48))}`,
    post,
    "/category/design",
    "/categories",
    `/search?q=${RARE_WORD}`,
    `/search?q=${COMMON_WORD}`,
    "/about",
  ];
}

interface Latency {
  p50: number;
  p99: number;
}

interface RouteFigures {
  load: Figures;
  single: Latency;
}

/**
 * One request at a time for `seconds` (at least 20 requests), timed here to a tenth of a
 * millisecond: autocannon's whole-millisecond latencies read 0 for a cached page.
 */
async function singleRequestLatency(url: string, seconds: number): Promise<Latency> {
  const timings: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (timings.length < 20 || performance.now() < until) {
    const started = performance.now();
    const response = await fetch(url, { headers: HEADERS });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  const at = (share: number) => timings[Math.min(timings.length - 1, Math.floor(share * timings.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

async function measureServer(base: string, routes: string[], pid: number) {
  const figures = new Map<string, RouteFigures>();
  const peak: Memory = { rss: 0, anonymous: 0 };
  for (const route of routes) {
    // A first request fills the cache (when there is one); the figures are for what follows.
    await fetch(`${base}${route}`, { headers: HEADERS }).then((response) => response.arrayBuffer());
    const loaded = await load(`${base}${route}`, CONNECTIONS, SECONDS);
    const memory = memoryMegabytes(pid);
    peak.rss = Math.max(peak.rss, memory.rss);
    peak.anonymous = Math.max(peak.anonymous, memory.anonymous);
    const single = await singleRequestLatency(`${base}${route}`, Math.max(1, SECONDS / 2));
    figures.set(route, { load: loaded, single });
  }
  return { figures, peak };
}

/** The same bytes from a server that does nothing else: nginx when installed, else node:http. */
async function startStaticBaseline(pages: Map<string, Buffer>): Promise<{ name: string; stop: () => Promise<void> }> {
  const directory = mkdtempSync(path.join(tmpdir(), "blog-bench-static-"));
  // nginx's workers run as an unprivileged user.
  chmodSync(directory, 0o755);
  const files = new Map<string, string>();
  [...pages.keys()].forEach((route, index) => {
    const file = `page-${index}.html`;
    writeFileSync(path.join(directory, file), pages.get(route)!);
    files.set(route, file);
  });
  const nginx = spawnSync("nginx", ["-v"], { stdio: "ignore" }).status === 0;
  if (nginx) {
    mkdirSync(path.join(directory, "logs"));
    const locations = [...files]
      .map(([route, file]) => `if ($request_uri = "${route}") { rewrite ^ /${file} break; }`)
      .join("\n      ");
    const config = `worker_processes 1; daemon off; pid ${directory}/nginx.pid; error_log ${directory}/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off; client_body_temp_path ${directory}; proxy_temp_path ${directory};
  fastcgi_temp_path ${directory}; uwsgi_temp_path ${directory}; scgi_temp_path ${directory};
  types { text/html html; }
  gzip on; gzip_comp_level 6; gzip_types text/html; gzip_min_length 0;
  server {
    listen 127.0.0.1:${STATIC_PORT};
    root ${directory};
    location / {
      ${locations}
    }
  }
}`;
    writeFileSync(path.join(directory, "nginx.conf"), config);
    const child = spawn("nginx", ["-p", directory, "-c", path.join(directory, "nginx.conf")], { stdio: "inherit" });
    await waitUntilUp(`http://127.0.0.1:${STATIC_PORT}/`, child);
    return {
      name: "nginx (gzip on, one worker)",
      stop: async () => {
        await stopServer(child);
        rmSync(directory, { recursive: true, force: true });
      },
    };
  }
  const compressed = new Map([...pages].map(([route, body]) => [route, gzipSync(body)]));
  const server = createServer((req, res) => {
    const body = compressed.get(req.url ?? "");
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "text/html", "Content-Encoding": "gzip", "Content-Length": body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(STATIC_PORT, "127.0.0.1", resolve));
  return {
    name: "node:http (pre-gzipped)",
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

async function main(): Promise<void> {
  const sqliteDirectory = mkdtempSync(path.join(tmpdir(), "blog-bench-"));
  const postgresName = `inkwell_bench_${process.pid}`;
  const postgresUrl = new URL(POSTGRES_ADMIN_URL);
  postgresUrl.pathname = `/${postgresName}`;
  const databases = [
    { name: "SQLite", url: `file:${sqliteDirectory}/blog.sqlite` },
    { name: "PostgreSQL", url: postgresUrl.href },
  ];
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${postgresName}`);

  const base = `http://127.0.0.1:${PORT}`;
  const results: { database: string; cache: string; figures: Map<string, RouteFigures>; peak: Memory }[] = [];
  let routes: string[] = [];
  const pages = new Map<string, Buffer>();
  try {
    for (const database of databases) {
      console.log(`\n=== ${database.name}: building ${POSTS.toLocaleString("en-US")} posts`);
      // The server migrates the empty database; bench-data then fills it.
      const migrating = startBlog(database.url);
      try {
        await waitUntilUp(`${base}/healthz`, migrating);
      } finally {
        await stopServer(migrating);
      }
      fillDatabase(database.url);
      if (database.name === "PostgreSQL") await vacuumAnalyze(database.url);
      for (const [cache, env] of [
        ["cached", {}],
        ["uncached", { PAGE_CACHE_BYTES: "0" }],
      ] as const) {
        const server = startBlog(database.url, env);
        await waitUntilUp(`${base}/healthz`, server);
        if (routes.length === 0) {
          routes = await publicRoutes(base);
          for (const route of routes)
            pages.set(route, Buffer.from(await (await fetch(`${base}${route}`)).arrayBuffer()));
          console.log("\n=== Page weight (gzip): the scripts and styles each page loads or carries inline\n");
          console.log(formatWeights(await measurePages(base, routes)));
        }
        try {
          console.log(`  measuring ${cache}…`);
          const measured = await measureServer(base, routes, server.pid!);
          results.push({ database: database.name, cache, ...measured });
        } finally {
          await stopServer(server);
        }
      }
    }

    const baseline = await startStaticBaseline(pages);
    const staticFigures = new Map<string, Figures>();
    try {
      for (const route of routes)
        staticFigures.set(route, await load(`http://127.0.0.1:${STATIC_PORT}${route}`, CONNECTIONS, SECONDS));
    } finally {
      await baseline.stop();
    }

    console.log(
      `\n=== Throughput at ${CONNECTIONS} connections (${SECONDS} s per route, gzip), single-request latency, ` +
        `${POSTS.toLocaleString("en-US")} posts; static baseline: ${baseline.name}\n`,
    );
    const header = ["route", "static r/s", ...results.map((run) => `${run.database} ${run.cache}`)];
    console.log(`| ${header.join(" | ")} |`);
    console.log(`|${header.map(() => "---").join("|")}|`);
    for (const route of routes) {
      const still = staticFigures.get(route)!;
      const cells = results.map((run) => {
        const { load: loaded, single } = run.figures.get(route)!;
        return `${fixed(loaded.perSecond)} r/s (${fixed(loaded.perSecond / still.perSecond, 2)}×), p50 ${fixed(single.p50, 1)} / p99 ${fixed(single.p99, 1)} ms`;
      });
      console.log(`| ${route} | ${fixed(still.perSecond)} | ${cells.join(" | ")} |`);
    }
    console.log(`| peak RSS | | ${results.map((run) => `${fixed(run.peak.rss)} MB`).join(" | ")} |`);
    console.log(`| of which anonymous | | ${results.map((run) => `${fixed(run.peak.anonymous)} MB`).join(" | ")} |`);
  } finally {
    await admin.query(`drop database if exists ${postgresName} with (force)`);
    await admin.end();
    rmSync(sqliteDirectory, { recursive: true, force: true });
  }
}

await main();
await benchNewsletter();
await benchFediverse();
await benchAnalytics();
