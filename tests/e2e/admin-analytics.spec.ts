import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { createPost, signIn, uniqueSuffix } from "./admin-support";

// Chromium's headless user agent names itself a bot, so every browser here states an ordinary one.
const DESKTOP_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** A browser of its own, at its own address (the server trusts X-Forwarded-For in these tests). */
function visitor(browser: Browser, address: string, userAgent: string): Promise<BrowserContext> {
  return browser.newContext({ userAgent, extraHTTPHeaders: { "X-Forwarded-For": address } });
}

/** Opens `path` and waits for the page's beacon to be answered. */
async function view(page: Page, path: string): Promise<void> {
  const beacon = page.waitForResponse((response) => new URL(response.url()).pathname === "/hit");
  await page.goto(path);
  const answer = await beacon;
  expect(answer.status(), `the beacon of ${path}`).toBe(204);
  expect(answer.headers()["set-cookie"], "the beacon sets no cookie").toBeUndefined();
}

/** What the screen's totals say today. */
async function todaysFigures(page: Page): Promise<{ visitors: number; views: number; now: number }> {
  await page.goto("/admin/analytics");
  const figure = async (label: string) =>
    Number((await page.locator(`[data-figure="${label}"]`).textContent())!.replaceAll(",", ""));
  return { visitors: await figure("Visitors"), views: await figure("Page views"), now: await figure("Visitors now") };
}

/** Views and visitors of each path in today's CSV. */
async function csvRows(page: Page): Promise<Map<string, { views: number; visitors: number }>> {
  const response = await page.request.get("/admin/analytics/export.csv");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  const [header, ...lines] = (await response.text()).trimEnd().split("\r\n");
  expect(header).toBe("path,views,visitors");
  return new Map(
    lines.map((line) => {
      const [path, views, visitors] = line.split(",");
      return [path!, { views: Number(views), visitors: Number(visitors) }];
    }),
  );
}

test("two readers make five views; a crawler and the signed-in writer make more; the screen and the CSV count five views by two visitors, and readers keep no cookie or storage", async ({
  browser,
  page,
}) => {
  test.slow();
  await signIn(page.request);
  const post = await createPost(page.request, { title: `Counted ${uniqueSuffix()}`, published: true });
  const path = `/blog/${post.slug}`;
  const before = await todaysFigures(page);

  const readers = [
    { context: await visitor(browser, "198.51.100.7", DESKTOP_CHROME), views: 3 },
    { context: await visitor(browser, "203.0.113.42", IPHONE_SAFARI), views: 2 },
  ];
  for (const reader of readers) {
    const readerPage = await reader.context.newPage();
    for (let count = 0; count < reader.views; count += 1) await view(readerPage, path);
    expect(await reader.context.cookies(), "a reader received no cookie").toEqual([]);
    const storage = await readerPage.evaluate(async () => ({
      cookie: document.cookie,
      local: localStorage.length,
      session: sessionStorage.length,
      databases: (await indexedDB.databases()).length,
    }));
    expect(storage, "nothing was written to the reader's browser").toEqual({
      cookie: "",
      local: 0,
      session: 0,
      databases: 0,
    });
  }

  const crawler = await visitor(browser, "192.0.2.50", GOOGLEBOT);
  const crawlerPage = await crawler.newPage();
  for (let count = 0; count < 2; count += 1) await view(crawlerPage, path);
  const writer = await visitor(browser, "198.51.100.99", DESKTOP_CHROME);
  await signIn(writer.request);
  const writerPage = await writer.newPage();
  for (let count = 0; count < 2; count += 1) await view(writerPage, path);
  await writerPage.goto("/privacy");
  await expect(writerPage.getByRole("heading", { name: "Visitor statistics" })).toBeVisible();

  // Events are written within a second; the screen adds those the rollup has not reached yet.
  await expect(async () => {
    const after = await todaysFigures(page);
    expect({ visitors: after.visitors - before.visitors, views: after.views - before.views }).toEqual({
      visitors: 2,
      views: 5,
    });
    expect(after.now).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 15_000 });

  const pages = page.getByRole("table", { name: "Top posts and pages, page 1" });
  await expect(pages.getByRole("row").filter({ hasText: path })).toHaveText(new RegExp(`${path}\\s*2\\s*5`));
  await expect(
    page.getByRole("table", { name: "Devices, page 1" }).getByRole("row").filter({ hasText: "Mobile" }),
  ).toBeVisible();
  expect((await csvRows(page)).get(path)).toEqual({ views: 5, visitors: 2 });

  await page.goto(`/admin/posts/edit/${post.id}`);
  await expect(page.getByRole("link", { name: "5 views by 2 visitors in the last 30 days" })).toBeVisible();

  for (const context of [...readers.map((reader) => reader.context), crawler, writer]) await context.close();
});

test("the screen reads well without JavaScript and in a screen reader: ranges, tables and the CSV link", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context.request);
  const page = await context.newPage();
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Analytics" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Visitors and page views by hour" }).getByRole("row")).toHaveCount(25);

  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "12 months" }).click();
  await expect(page).toHaveURL(/range=12m/);
  await expect(page.getByRole("table", { name: "Visitors and page views by month" }).getByRole("row")).toHaveCount(13);

  await page.getByLabel("From", { exact: true }).fill("2026-01-01");
  await page.getByLabel("To", { exact: true }).fill("2026-01-07");
  await page.getByRole("button", { name: "Show range" }).click();
  await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-07/);
  await expect(page.getByRole("table", { name: "Visitors and page views by day" }).getByRole("row")).toHaveCount(8);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
    "href",
    "/admin/analytics/export.csv?from=2026-01-01&to=2026-01-07",
  );

  await page.goto("/admin/analytics?from=2026-01-07&to=2026-01-01");
  await expect(page.getByText("The start date comes after the end date.")).toBeVisible();
  await context.close();
});

test("the Analytics screen and its settings pass axe, and the chart is hidden from screen readers", async ({
  page,
}) => {
  await signIn(page.request);
  await page.goto("/admin/analytics?range=7d");
  await expect(page.locator("[data-chart-for=series-table] canvas").first()).toBeVisible();
  await expect(page.locator("[data-chart-for=series-table]")).toHaveAttribute("aria-hidden", "true");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByRole("link", { name: "Analytics settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Analytics settings" })).toBeVisible();
  await expect(page.getByLabel("Count readers")).toBeChecked();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});
