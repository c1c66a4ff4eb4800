// Lighthouse (mobile) on the production server (`npm run lighthouse` builds first) with a
// fresh demo database, against Debian's Chromium. Prints the four category scores per page.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { startDemoServer } from "./demo-server.ts";

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3195);
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Headless and off the network: the machine reaches nothing but this server.
const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

interface LighthouseReport {
  categories: Record<(typeof CATEGORIES)[number], { score: number | null }>;
  audits: Record<string, { score: number | null; title: string; scoreDisplayMode: string }>;
}

/** Lighthouse exits non-zero when it cannot score a page; its report still says why. */
async function audit(base: string, pathname: string): Promise<LighthouseReport> {
  const run = promisify(execFile);
  const { stdout } = await run(
    path.resolve("node_modules/.bin/lighthouse"),
    [
      `${base}${pathname}`,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      `--only-categories=${CATEGORIES.join(",")}`,
      `--chrome-flags=${CHROME_FLAGS.join(" ")}`,
    ],
    { env: { ...process.env, CHROME_PATH }, maxBuffer: 256 * 1024 * 1024 },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    if (!error.stdout) throw error;
    console.error(`    ${pathname}: ${error.stderr?.trim() ?? "Lighthouse failed"}`);
    return { stdout: error.stdout };
  });
  return JSON.parse(stdout) as LighthouseReport;
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART); a second run of the same page scores it. */
async function auditWithRetry(base: string, pathname: string): Promise<LighthouseReport | undefined> {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const report = await audit(base, pathname).catch((error: unknown) => {
      console.error(`    ${pathname}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      return undefined;
    });
    if (report && CATEGORIES.every((category) => report.categories[category].score !== null)) return report;
  }
  return undefined;
}

const server = await startDemoServer(PORT);
try {
  const pages = ["/", "/blog", server.postPath, "/category/design", "/categories", "/search?q=design", "/about"];
  console.log(`Lighthouse, mobile, ${server.base}`);
  console.log(["page".padEnd(44), "perf", "a11y", "best", " seo"].join("  "));
  for (const pathname of pages) {
    const report = await auditWithRetry(server.base, pathname);
    const scores = CATEGORIES.map((category) => {
      const score = report?.categories[category].score ?? null;
      return (score === null ? "–" : String(Math.round(score * 100))).padStart(4);
    });
    console.log([pathname.padEnd(44), ...scores].join("  "));
    if (report && process.env.LIGHTHOUSE_VERBOSE === "1") {
      for (const [id, result] of Object.entries(report.audits)) {
        if (result.score !== null && result.score < 1 && result.scoreDisplayMode !== "informative") {
          console.log(`    ${id} (${result.score}): ${result.title}`);
        }
      }
    }
  }
} finally {
  await server.stop();
}
