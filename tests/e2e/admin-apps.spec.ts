import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { signIn, uniqueSuffix } from "./admin-support";

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

test("the owner connects an app, which reads the blog with its key until the key is revoked", async ({
  page,
  request,
}) => {
  const name = `Ulysses ${uniqueSuffix()}`;
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Apps" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Apps" })).toBeVisible();

  await page.getByLabel("App name").fill(name);
  await page.getByLabel("It may write").selectOption("publish");
  await page.getByRole("button", { name: "Create key" }).click();
  const adminKey = page.getByLabel("Admin API key (for writing apps)");
  await expect(adminKey).toHaveValue(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
  await expect(page.getByLabel("API URL (the blog's address)")).toHaveValue(E2E_ADMIN_URL);
  const contentKey = await page.getByLabel("Content API key (for headless front ends)").inputValue();

  const settingsPath = `/ghost/api/content/settings/?key=${contentKey}`;
  expect((await request.get(settingsPath)).status()).toBe(200);

  await page.reload();
  await expect(page.getByLabel("Admin API key (for writing apps)")).toHaveCount(0);
  const row = page.getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText("Drafts and publishing");
  await expect(row).toContainText("last used");
  await row.getByRole("button", { name: `Revoke the key of ${name}` }).click();
  await expect(page.getByText("App key revoked. The app is refused from its next request.")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
  expect((await request.get(settingsPath)).status()).toBe(401);
});

test("without JavaScript a key is created, a refusal comes back with its message, and a key is revoked", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: E2E_ADMIN_URL, javaScriptEnabled: false });
  await signIn(context.request);
  const page = await context.newPage();
  await page.goto("/admin/settings/apps");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page).toHaveURL(/\/admin\/settings\/apps\/create$/);
  await expect(page.getByText("Please name the app")).toBeVisible();

  const name = `iA Writer ${uniqueSuffix()}`;
  await page.getByLabel("App name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByLabel("Admin API key (for writing apps)")).toHaveValue(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
  await expect(page.getByLabel("Token (for Micropub and XML-RPC apps)")).not.toHaveValue("");

  await page.getByLabel("App name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Another app already has this name")).toBeVisible();

  await page.goto("/admin/settings/apps");
  await page.getByRole("button", { name: `Revoke the key of ${name}` }).click();
  await expect(page).toHaveURL(/\/admin\/settings\/apps$/);
  await expect(page.getByText("App key revoked. The app is refused from its next request.")).toBeVisible();
  await context.close();
});

test("the Apps screen passes axe with a new key showing", async ({ page }) => {
  await page.goto("/admin/settings/apps");
  await page.getByLabel("App name").fill(`Obsidian ${uniqueSuffix()}`);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByLabel("Admin API key (for writing apps)")).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
});
