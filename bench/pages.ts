// Page throughput of the production server (run `npm run build` first) on a fresh demo database.
// Every page is measured in the same run against /healthz, so the ratios are what to compare.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const PORT = Number(process.env.BENCH_PORT ?? 3190);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 8;
const base = `http://127.0.0.1:${PORT}`;

async function waitUntilUp(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (
      await fetch(`${base}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not start");
}

async function measure(pathname: string): Promise<{ perSecond: number; p95: number; bytes: number }> {
  const latencies: number[] = [];
  let bytes = 0;
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const response = await fetch(`${base}${pathname}`, { headers: { "Accept-Encoding": "gzip" } });
        const body = await response.arrayBuffer();
        if (!response.ok) throw new Error(`${pathname} answered ${response.status}`);
        bytes = body.byteLength;
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / SECONDS,
    p95: latencies[Math.floor(latencies.length * 0.95)] ?? 0,
    bytes,
  };
}

const directory = mkdtempSync(path.join(tmpdir(), "blog-bench-pages-"));
const server = spawn(process.execPath, ["server.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATABASE_URL: `file:${directory}/blog.sqlite`,
    LOG_LEVEL: "warn",
  },
  stdio: "inherit",
});
try {
  await waitUntilUp();
  const home = await (await fetch(base)).text();
  const postPath = home.match(/href="(\/blog\/[\w-]+)"/)?.[1] ?? "/blog";
  const pages = ["/healthz", "/", "/blog", postPath, "/search?q=sqlite", "/category/design", "/categories"];
  console.log(`${SECONDS} s per page, ${CONCURRENCY} concurrent requests, SQLite with the demo content\n`);
  console.log(
    `${"page".padEnd(28)}${"req/s".padStart(8)}${"p95 ms".padStart(9)}${"bytes".padStart(12)}${"vs /healthz".padStart(13)}`,
  );
  let baseline = 0;
  for (const page of pages) {
    const result = await measure(page);
    baseline ||= result.perSecond;
    console.log(
      `${page.padEnd(28)}${result.perSecond.toFixed(0).padStart(8)}${result.p95.toFixed(1).padStart(9)}${String(result.bytes).padStart(12)}${(result.perSecond / baseline).toFixed(2).padStart(13)}`,
    );
  }
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.on("exit", resolve));
  rmSync(directory, { recursive: true, force: true });
}
