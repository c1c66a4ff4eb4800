import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { findPostByTitle, signIn } from "./admin-support";

const fixture = (name: string) => path.resolve("tests/fixtures", name);

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

test("the owner uploads a Ghost export on the Tools page, and reads the report", async ({ page }) => {
  await page.goto("/admin/tools");
  await page.getByLabel("Export file").setInputFiles(fixture("ghost-export.json"));
  await page.getByLabel("Category map (optional)").fill('{"woodworking": "Tutorials"}');
  await page.getByLabel("Default category").selectOption("Technology");
  await page.getByRole("button", { name: "Import" }).click();

  const report = page.getByRole("region", { name: "Import report" });
  await expect(report.getByRole("status")).toHaveText(/^Imported from a Ghost export: \d+ posts, \d+ comments/);
  await expect(page).toHaveURL(/\/admin\/tools$/);
  expect(findPostByTitle("Caching at the edge: a field guide")).toBeDefined();
});

test("the export with images downloads as a zip holding the JSON export", async ({ page }) => {
  await page.goto("/admin/tools");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download export with images (.zip)" }).click();
  const file = await (await download).path();
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 4).toString("latin1")).toBe("PK\u0003\u0004");
  expect(bytes.includes(Buffer.from("inkwell-export.json"))).toBe(true);
  expect((await download).suggestedFilename()).toMatch(/^inkwell-export-\d{4}-\d{2}-\d{2}\.zip$/);
});

test("a file that is not an export is refused with a message, and the form keeps the options", async ({ page }) => {
  await page.goto("/admin/tools");
  await page.getByLabel("Export file").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("just some notes"),
  });
  await page.getByLabel("Default category").selectOption("Design");
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert")).toHaveText(/^Nothing was imported: This file is neither JSON nor XML/);
  await expect(page.getByLabel("Default category")).toHaveValue("Design");
  await expect(page.getByRole("region", { name: "Import report" })).toHaveCount(0);
});

test("an upload after the session ended says to sign in again, and imports nothing", async ({ page }) => {
  await page.goto("/admin/tools");
  await page.context().clearCookies();
  await page.getByLabel("Export file").setInputFiles(fixture("ghost-export.json"));
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert")).toHaveText(/^You are signed out\. Sign in again/);
  await expect(page.getByRole("region", { name: "Import report" })).toHaveCount(0);
});

test("choosing no file is caught in the browser, on the file field", async ({ page }) => {
  await page.goto("/admin/tools");
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByLabel("Export file")).toBeFocused();
  await expect(page.getByText("Choose an export file to import")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the upload posts the form and answers with a report page; pages arrive as pages", async ({ page }) => {
    await page.goto("/admin/tools");
    await expect(page.getByLabel("Pages (WordPress and Ghost)")).toHaveValue("pages");
    await page.getByLabel("Export file").setInputFiles(fixture("wordpress-export.xml"));
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page).toHaveURL(/\/admin\/tools\/import$/);
    await expect(page.getByRole("heading", { name: "Import report" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText(
      /^Imported from a WordPress export: \d+ posts, \d+ comments, \d+ pages/,
    );
    await page.goto("/about-the-workshop");
    await expect(page.getByRole("heading", { level: 1, name: "About the workshop" })).toBeVisible();
  });

  test("a category map that is not JSON comes back with its message on the field", async ({ page }) => {
    await page.goto("/admin/tools");
    await page.getByLabel("Export file").setInputFiles(fixture("wordpress-export.xml"));
    await page.getByLabel("Category map (optional)").fill("news = Business");
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByText(/^The category map must be JSON/)).toBeVisible();
    await expect(page.getByLabel("Category map (optional)")).toHaveValue("news = Business");
  });
});
