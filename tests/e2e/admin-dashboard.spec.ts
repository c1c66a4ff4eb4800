import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { createPost, signIn, uniqueSuffix } from "./admin-support";
import { useStoredTheme } from "./site-fixtures";

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

const summary = (page: Page) => page.getByRole("region", { name: /^At a glance/ });

/** The figure a summary link shows: "3 Drafts" reads 3. */
async function figure(page: Page, label: RegExp): Promise<number> {
  const text = await summary(page).getByRole("link", { name: label }).innerText();
  return Number(text.replace(/[^\d]/g, ""));
}

test("the Dashboard shows the blog's figures above the posts list, each a link to its screen", async ({ page }) => {
  await page.goto("/admin");
  const drafts = await figure(page, /Drafts?$/);
  await createPost(page.request, { title: `Unfinished ${uniqueSuffix()}` });
  await page.goto("/admin");
  expect(await figure(page, /Drafts?$/)).toBe(drafts + 1);

  const links = summary(page).getByRole("link");
  await expect(links).toHaveText([
    /^\d+\s*Drafts?$/,
    /^\d+\s*Scheduled$/,
    /^\d+\s*Comments? waiting$/,
    /^\d+\s*Views?$/,
    /^\d+\s*Visitors?$/,
    /^\d+\s*New subscribers?$/,
    /^\d+\s*New followers?$/,
  ]);
  await expect(summary(page).getByRole("link", { name: /Comments? waiting$/ })).toHaveAttribute(
    "href",
    "/admin/comments?status=pending",
  );
  await summary(page)
    .getByRole("link", { name: /Drafts?$/ })
    .click();
  await expect(page).toHaveURL(/\/admin\/posts\?status=draft$/);
  await expect(page.getByText("Drafts only, newest first.")).toBeVisible();
  await expect(page.getByRole("cell", { name: "Published", exact: true })).toHaveCount(0);
  await page.goto("/admin");
  await summary(page)
    .getByRole("link", { name: /Visitors?$/ })
    .click();
  await expect(page).toHaveURL(/\/admin\/analytics\?range=7d$/);

  // Blog Posts is the same list without the figures.
  await page.goto("/admin/posts");
  await expect(page.getByRole("columnheader", { name: "Title" })).toBeVisible();
  await expect(summary(page)).toHaveCount(0);
});

test("View site in the admin header opens the blog's home page", async ({ page }) => {
  await page.goto("/admin/settings");
  await page.getByRole("link", { name: "View site", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "View site" })).toHaveCount(0);
});

test("the time zone is picked from a list of every zone", async ({ page }) => {
  await page.goto("/admin/settings");
  const zone = page.getByRole("combobox", { name: "Time zone" });
  await expect(zone).toHaveAttribute("list", "time-zones");
  await expect(page.locator('datalist#time-zones option[value="Europe/Paris"]')).toHaveCount(1);
  await expect(page.locator("datalist#time-zones option").first()).toHaveAttribute("value", "UTC");
});

test("choosing an export file lists its categories, each with the blog's categories to choose from", async ({
  page,
}) => {
  await page.goto("/admin/tools");
  await page.getByLabel("Export file").setInputFiles(path.resolve("tests/fixtures", "wordpress-export.xml"));
  const rows = page.getByRole("group", { name: "Categories in this file" });
  await expect(rows.getByRole("combobox", { name: "Woodworking" })).toHaveValue("");
  await rows.getByRole("combobox", { name: "Woodworking" }).selectOption("Technology");
  await expect(rows.getByRole("combobox", { name: "Hand tools" })).toBeVisible();
  // The map typed as JSON is still there, for names the file does not list.
  await expect(page.getByLabel("Category map (optional)")).toBeVisible();
});

test("a picture chosen on Your account is shown before it is uploaded", async ({ page }) => {
  await page.goto("/admin/account");
  // A 1×1 PNG.
  const pixel = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );
  await page.getByLabel("Your picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: pixel });
  await expect(page.getByRole("img", { name: "Your chosen picture" })).toBeVisible();
});

for (const theme of ["light", "dark"] as const) {
  test(`the Dashboard passes axe in the ${theme} theme`, async ({ page }) => {
    // axe reads the whole page, the posts list included: slow on a busy machine.
    test.slow();
    await useStoredTheme(page, theme);
    await page.goto("/admin");
    await expect(summary(page)).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });
}
