// Lighthouse (mobile) on the production server (`npm run lighthouse` builds first) with a
// fresh demo database, against Debian's Chromium. Prints the four category scores per page.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3195);
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const base = `http://127.0.0.1:${PORT}`;
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

async function waitUntilUp(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const up = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not start");
}

interface LighthouseReport {
  categories: Record<(typeof CATEGORIES)[number], { score: number | null }>;
  audits: Record<string, { score: number | null; title: string; scoreDisplayMode: string }>;
}

/** Lighthouse exits non-zero when it cannot score a page; its report still says why. */
async function audit(pathname: string): Promise<LighthouseReport> {
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

const directory = mkdtempSync(path.join(tmpdir(), "blog-lighthouse-"));
const server = spawn(process.execPath, ["server.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    HOST: "127.0.0.1",
    SITE_URL: base,
    DATABASE_URL: `file:${directory}/blog.sqlite`,
    BLOG_DEMO: "1",
    LOG_LEVEL: "warn",
  },
  stdio: ["ignore", "ignore", "inherit"],
});

try {
  await waitUntilUp();
  const blogPage = await (await fetch(`${base}/blog`)).text();
  const postPath = blogPage.match(/href="(\/blog\/[a-z0-9-]+)"/)?.[1];
  if (!postPath) throw new Error("no post link on /blog");
  const pages = ["/", "/blog", postPath, "/category/design", "/categories", "/search?q=design", "/about"];
  console.log(`Lighthouse, mobile, ${base}`);
  console.log(["page".padEnd(44), "perf", "a11y", "best", " seo"].join("  "));
  for (const pathname of pages) {
    const report = await audit(pathname);
    const scores = CATEGORIES.map((category) => {
      const score = report.categories[category].score;
      return (score === null ? "–" : String(Math.round(score * 100))).padStart(4);
    });
    console.log([pathname.padEnd(44), ...scores].join("  "));
    if (process.env.LIGHTHOUSE_VERBOSE === "1") {
      for (const [id, result] of Object.entries(report.audits)) {
        if (result.score !== null && result.score < 1 && result.scoreDisplayMode !== "informative") {
          console.log(`    ${id} (${result.score}): ${result.title}`);
        }
      }
    }
  }
} finally {
  server.kill("SIGTERM");
  rmSync(directory, { recursive: true, force: true });
}
