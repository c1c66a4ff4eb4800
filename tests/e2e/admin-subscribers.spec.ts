import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signIn, uniqueSuffix, withDatabase } from "./admin-support";
import { useStoredTheme } from "./site-fixtures";

const fixture = (name: string) => path.resolve("tests/fixtures", name);

function findSubscriber(email: string): { state: string; source: string } | undefined {
  return withDatabase(
    (db) =>
      db.prepare("select state, source from subscribers where email = ?").get(email) as
        { state: string; source: string } | undefined,
  );
}

async function search(page: Page, text: string) {
  await page.getByRole("searchbox", { name: "Search subscribers by email" }).fill(text);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(text).replace(/\./g, "\\.")}`));
}

/** Adds an address through the form, its owner's consent ticked, on the Subscribers page. */
async function addSubscriber(page: Page, email: string) {
  const add = page.getByRole("region", { name: "Add a subscriber" });
  await add.getByLabel("Email").fill(email);
  await add.getByLabel("They asked to subscribe").check();
  await add.getByRole("button", { name: "Add subscriber" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Subscriber added." })).toBeVisible();
}

/**
 * Without JavaScript the screen shows an import's rows read with a Refresh link until the writer
 * follows it; once the import has ended, its report.
 */
async function refreshUntilReport(page: Page) {
  const report = page.getByRole("region", { name: "Import report" });
  await expect(async () => {
    const refresh = page.getByRole("link", { name: "Refresh" });
    if ((await refresh.count()) > 0) await refresh.click();
    else await page.reload();
    await expect(report).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
}

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

test("the owner adds an address that asked to subscribe, finds it, and removes it for good", async ({ page }) => {
  const email = `friend-${uniqueSuffix()}@example.com`;
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Subscribers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Subscribers" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Subscriber state" }).getByRole("link")).toHaveText([
    /^Pending \(\d+\)$/,
    /^Active \(\d+\)$/,
    /^Unsubscribed \(\d+\)$/,
    /^Bounced \(\d+\)$/,
  ]);

  const add = page.getByRole("region", { name: "Add a subscriber" });
  await add.getByLabel("Email").fill(email);
  await add.getByRole("button", { name: "Add subscriber" }).click();
  await expect(add.getByText("Add an address only when its owner asked to subscribe")).toBeVisible();
  expect(findSubscriber(email)).toBeUndefined();

  await add.getByLabel("They asked to subscribe").check();
  await add.getByRole("button", { name: "Add subscriber" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Subscriber added." })).toBeVisible();
  expect(findSubscriber(email)).toEqual({ state: "active", source: "admin" });

  await search(page, email);
  const row = page.getByRole("row", { name: new RegExp(email) });
  await expect(row.getByRole("cell", { name: "Added here" })).toBeVisible();
  await row.getByRole("link", { name: `Remove ${email}` }).click();
  await row.getByRole("button", { name: `Yes, remove ${email}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Subscriber removed for good." })).toBeVisible();
  await expect(page.getByText(/No active subscribers match your search/)).toBeVisible();
  expect(findSubscriber(email)).toBeUndefined();
});

test("the export downloads every subscriber as CSV, with formulas kept as text", async ({ page }) => {
  const email = `-sum-${uniqueSuffix()}@example.com`;
  await page.goto("/admin/subscribers");
  await addSubscriber(page, email);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  expect((await download).suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await (await download).path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe("email,state,created_at,confirmed_at");
  expect(csv).toMatch(new RegExp(`\\r\\n'${email},active,\\d{4}-`));
});

// One import runs at a time on a blog (a second is refused with 409), so the tests that import wait for each other.
test.describe("imports, one at a time", () => {
  test.describe.configure({ mode: "serial" });

  test("a CSV larger than a form's 4 MB imports in the background (the upload has its own limit), one too large is caught in the browser", async ({
    page,
  }) => {
    const email = `large-${uniqueSuffix()}@example.com`;
    await page.goto("/admin/subscribers");
    const form = page.getByRole("region", { name: "Import a CSV" });
    await form.getByLabel("CSV file").setInputFiles({
      name: "large.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`email,note\n${email},${"x".repeat(6 * 1024 * 1024)}\n`),
    });
    await form.getByLabel("These people agreed to receive this newsletter").check();
    await form.getByRole("button", { name: "Import CSV" }).click();
    await expect(page).toHaveURL(/\/admin\/subscribers$/);
    // The screen looks again every second or two while the import runs, until its report.
    await expect(form.getByRole("region", { name: "Import report" }).getByRole("status")).toHaveText(
      "1 address added as active; 0 already on the list; 0 not valid.",
      { timeout: 15_000 },
    );
    await expect(page.getByText(/^Importing subscribers…/)).toHaveCount(0);
    expect(findSubscriber(email)).toEqual({ state: "active", source: "import" });

    await form.getByLabel("CSV file").setInputFiles({
      name: "huge.csv",
      mimeType: "text/csv",
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1, "a"),
    });
    await form.getByRole("button", { name: "Import CSV" }).click();
    await expect(form.getByText("The file is too large: a subscriber CSV may be at most 10 MB.")).toBeVisible();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a Ghost members CSV imports as pending in the background, with a report naming the bad lines", async ({
      page,
    }) => {
      await page.goto("/admin/subscribers");
      const form = page.getByRole("region", { name: "Import a CSV" });
      await form.getByLabel("CSV file").setInputFiles(fixture("ghost-members.csv"));
      await form.getByRole("button", { name: "Import CSV" }).click();

      await expect(page).toHaveURL(/\/admin\/subscribers$/);
      await refreshUntilReport(page);
      const report = page.getByRole("region", { name: "Import report" });
      await expect(report.getByRole("status")).toHaveText(
        /^\d+ addresses? added as pending; \d+ already on the list; 1 skipped: not subscribed to emails in the export; 2 not valid\.$/,
      );
      await expect(report.getByRole("listitem")).toHaveText([
        "line 5: “not-an-address” is not a valid email address",
        'line 6: “=HYPERLINK("http://evil.example")” is not a valid email address',
      ]);
      expect(findSubscriber("ada@example.com")?.state).toBe("pending");
      expect(findSubscriber("quiet@example.com")).toBeUndefined();

      await page
        .getByRole("navigation", { name: "Subscriber state" })
        .getByRole("link", { name: /^Pending/ })
        .click();
      await expect(page.getByRole("cell", { name: "ada@example.com", exact: true })).toBeVisible();
    });
  });
});

for (const theme of ["light", "dark"] as const) {
  test(`the Subscribers screen passes axe in the ${theme} theme, a refusal and a confirmation showing`, async ({
    page,
  }) => {
    await useStoredTheme(page, theme);
    const email = `axe-${uniqueSuffix()}@example.com`;
    await page.goto("/admin/subscribers");
    await addSubscriber(page, email);
    const add = page.getByRole("region", { name: "Add a subscriber" });
    await page.getByRole("link", { name: `Remove ${email}` }).click();
    await expect(page.getByRole("button", { name: `Yes, remove ${email}` })).toBeVisible();
    await add.getByLabel("Email").fill("not an address");
    await add.getByRole("button", { name: "Add subscriber" }).click();
    await expect(add.getByText("Please enter a valid email address")).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)).toEqual([]);
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a file without an email column is refused on the file field, and nothing is added", async ({ page }) => {
    await page.goto("/admin/subscribers");
    const form = page.getByRole("region", { name: "Import a CSV" });
    await form.getByLabel("CSV file").setInputFiles({
      name: "names.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("name,note\nNo Address,hello\n"),
    });
    await form.getByLabel("These people agreed to receive this newsletter").check();
    await form.getByRole("button", { name: "Import CSV" }).click();
    await expect(page.getByText(/^The CSV has no email column/)).toBeVisible();
    await expect(page.getByRole("region", { name: "Import report" })).toHaveCount(0);
  });
});
