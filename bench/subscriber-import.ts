// A 10 MB subscriber CSV through the Subscribers screen's import (issue 32, item 15), on SQLite
// (a file) and PostgreSQL (TEST_POSTGRES_URL, default the local test server): how soon the upload
// is answered (the file checked, the import started in the background), the import's time, the
// longest the event loop waited meanwhile (what a reader's request, /healthz included, would
// have waited) and the process's peak RSS growth. Run with the server's memory flags (scripts/server-process.ts): `BENCH_DIALECT=sqlite node
// --max-semi-space-size=8 --heap-growing-percent=20 bench/subscriber-import.ts`, then `BENCH_DIALECT=postgres`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Dialect } from "../server/kernel/db/connect.ts";
import { createServices } from "../server/composition.ts";
import { onScratchDatabases } from "./scratch-databases.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 500_000);
// One database a run (BENCH_DIALECT=sqlite or postgres), so the figures of one do not carry the other's memory.
const DIALECTS = (process.env.BENCH_DIALECT?.split(",") ?? ["sqlite", "postgres"]) as Dialect[];

const directory = mkdtempSync(path.join(tmpdir(), "blog-bench-import-"));
try {
  const file = path.join(directory, "subscribers.csv");
  writeFileSync(file, `email\n${Array.from({ length: ROWS }, (_, index) => `u${index}@x.example`).join("\n")}\n`);
  await onScratchDatabases(
    "bench-import",
    async (handle) => {
      const { dialect } = handle;
      const services = createServices({ db: handle.db, dialect, commentIpSalt: "bench salt" });
      const rssBefore = process.memoryUsage.rss();
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      }, 20);
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const started = performance.now();
      const run = await services.subscribers.startImport(
        { path: file },
        { consent: false, startedBy: "bench", onError: (error) => console.error(error) },
      );
      const answered = (performance.now() - started) / 1000;
      const ended = await run.finished;
      const seconds = (performance.now() - started) / 1000;
      if (ended.state !== "finished") throw new Error(`The import ended ${ended.state}`);
      delay.disable();
      clearInterval(sampler);
      console.log(
        `${dialect}: upload answered in ${answered.toFixed(1)} s; ${ended.report.added} added in ` +
          `${seconds.toFixed(1)} s; event loop waited at most ` +
          `${(delay.max / 1e6).toFixed(0)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms); ` +
          `RSS +${((rssPeak - rssBefore) / 1024 / 1024).toFixed(0)} MB`,
      );
    },
    { dialects: DIALECTS },
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
