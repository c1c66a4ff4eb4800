// Lighthouse (mobile) on the production server (`npm run lighthouse` builds first) with a
// fresh demo database, against Debian's Chromium. Prints the four category scores per page.
// Last, as a writer would: a custom accent and typeface saved in Settings and a page made with
// the page editor's form, audited in the light and the dark theme.
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
async function audit(base: string, pathname: string, extraFlags: readonly string[]): Promise<LighthouseReport> {
  const run = promisify(execFile);
  const { stdout } = await run(
    path.resolve("node_modules/.bin/lighthouse"),
    [
      `${base}${pathname}`,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      `--only-categories=${CATEGORIES.join(",")}`,
      `--chrome-flags=${[...CHROME_FLAGS, ...extraFlags].join(" ")}`,
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
async function auditWithRetry(
  base: string,
  pathname: string,
  extraFlags: readonly string[],
): Promise<LighthouseReport | undefined> {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const report = await audit(base, pathname, extraFlags).catch((error: unknown) => {
      console.error(`    ${pathname}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      return undefined;
    });
    if (report && CATEGORIES.every((category) => report.categories[category].score !== null)) return report;
  }
  return undefined;
}

/** The writer's look and page: an accent that passes AA in both themes, a serif body, and a page with the usual parts. */
const WRITER = { email: "lighthouse@example.com", password: "a long lighthouse password" };
const LOOK = { accentColor: "#1d6b3a", bodyTypeface: "serif" };
/** A demo author the writer becomes for their author page. */
const AUTHOR = { name: "Maya Chen", slug: "maya-chen", bio: "Writes about databases, tests and the web platform." };
const PAGE = {
  title: "Colophon",
  slug: "colophon",
  format: "markdown",
  published: "on",
  description: "How this blog is made, and with what.",
  content: [
    "This blog is written in Markdown and served by **Inkwell** from a small server.",
    "## Tools",
    "- An editor, a terminal and [the source](https://example.com/source).",
    "- Photographs from the author's own camera.",
    "## Type",
    "Body text is set in the system's serif; code in its monospace: `npm start`.",
    "> Write what you would want to read.",
  ].join("\n\n"),
};

/** Posts a form as the writer, as a browser without JavaScript would; a refusal (4xx, 5xx) stops the run. */
async function postAsWriter(base: string, cookie: string, pathname: string, fields: Record<string, string>) {
  const response = await fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: base, Cookie: cookie },
    redirect: "manual",
  });
  if (response.status >= 400) throw new Error(`POST ${pathname} answered ${response.status}`);
}

async function signInAsWriter(base: string): Promise<string> {
  const signIn = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams(WRITER),
    headers: { Origin: base },
    redirect: "manual",
  });
  return signIn.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
}

async function prepareWritersPage(base: string, cookie: string): Promise<string> {
  const settings = await (await fetch(`${base}/admin/settings`, { headers: { Cookie: cookie } })).text();
  const current = Object.fromEntries(
    [...settings.matchAll(/<input[^>]*name="([A-Za-z]+)"[^>]*value="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]),
  );
  await postAsWriter(base, cookie, "/admin/settings", { timeZone: "UTC", postsPerPage: "10", ...current, ...LOOK });
  await postAsWriter(base, cookie, "/admin/pages/new", PAGE);
  // The page must be there, in the writer's colour, or its scores would measure something else.
  const page = await fetch(`${base}/${PAGE.slug}`);
  const html = await page.text();
  if (page.status !== 200 || !html.includes(`--color-indigo-700:${LOOK.accentColor}`)) {
    throw new Error(
      `/${PAGE.slug} answered ${page.status} ${html.includes(LOOK.accentColor) ? "" : "without the accent"}`,
    );
  }
  return `/${PAGE.slug}`;
}

/**
 * The writer takes a demo author's name and gives themselves a bio, so their author page lists
 * posts as a writer's would (docs/decisions/0022); its address.
 */
async function prepareAuthorPage(base: string, cookie: string): Promise<string> {
  await postAsWriter(base, cookie, "/admin/account/profile", { displayName: AUTHOR.name });
  await postAsWriter(base, cookie, "/admin/account/author", { slug: "", bio: AUTHOR.bio });
  const path = `/author/${AUTHOR.slug}`;
  const page = await fetch(`${base}${path}`);
  if (page.status !== 200 || !(await page.text()).includes(AUTHOR.bio))
    throw new Error(`${path} answered ${page.status}`);
  return path;
}

async function printScores(base: string, label: string, pathname: string, extraFlags: readonly string[] = []) {
  const report = await auditWithRetry(base, pathname, extraFlags);
  const scores = CATEGORIES.map((category) => {
    const score = report?.categories[category].score ?? null;
    return (score === null ? "–" : String(Math.round(score * 100))).padStart(4);
  });
  console.log([label.padEnd(44), ...scores].join("  "));
  if (report && process.env.LIGHTHOUSE_VERBOSE === "1") {
    for (const [id, result] of Object.entries(report.audits)) {
      if (result.score !== null && result.score < 1 && result.scoreDisplayMode !== "informative") {
        console.log(`    ${id} (${result.score}): ${result.title}`);
      }
    }
  }
}

const server = await startDemoServer(PORT, { ADMIN_EMAIL: WRITER.email, ADMIN_PASSWORD: WRITER.password });
try {
  const pages = [
    "/",
    "/blog",
    server.postPath,
    "/category/design",
    "/categories",
    "/search?q=design",
    "/about",
    "/tag/typescript",
  ];
  console.log(`Lighthouse, mobile, ${server.base}`);
  console.log(["page".padEnd(44), "perf", "a11y", "best", " seo"].join("  "));
  for (const pathname of pages) await printScores(server.base, pathname, pathname);
  const cookie = await signInAsWriter(server.base);
  const authorPage = await prepareAuthorPage(server.base, cookie);
  await printScores(server.base, authorPage, authorPage);
  const writersPage = await prepareWritersPage(server.base, cookie);
  const look = `accent ${LOOK.accentColor}, ${LOOK.bodyTypeface}`;
  await printScores(server.base, `${writersPage} (${look}, light)`, writersPage);
  // Chromium answers prefers-color-scheme: dark, which the page follows while no theme is chosen.
  await printScores(server.base, `${writersPage} (${look}, dark)`, writersPage, ["--force-dark-mode"]);
} finally {
  await server.stop();
}
