import { expect, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { signIn, uniqueSuffix } from "./admin-support";

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

test("the owner adds a webhook, sees its secret once, is refused a private address, and removes it", async ({
  page,
}) => {
  const url = `https://hooks.example.com/inkwell/${uniqueSuffix()}`;
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Webhooks" }).click();
  // The screen's first visit loads its code: give it the time a loaded machine takes.
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible({ timeout: 15_000 });

  await page.getByLabel("When").selectOption("comment.received");
  await page.getByLabel("Call this URL").fill("http://127.0.0.1:8080/hook");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByText("That URL cannot be called: 127.0.0.1 is not a public address.")).toBeVisible();

  await page.getByLabel("Call this URL").fill(url);
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByLabel("Signing secret")).toHaveValue(/^whsec_[A-Za-z0-9_-]{43}$/);
  const row = page.getByRole("listitem").filter({ hasText: url });
  await expect(row).toContainText("A comment is received");
  await expect(row).toContainText("Not called yet.");

  await page.reload();
  await expect(page.getByLabel("Signing secret")).toHaveCount(0);
  await page.getByRole("button", { name: `Remove the webhook calling ${url}` }).click();
  await expect(page.getByText("Webhook removed. Its URL is not called again.")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: url })).toHaveCount(0);
});

test("without JavaScript a webhook is added with its secret shown and a bad URL comes back with its message", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: E2E_ADMIN_URL, javaScriptEnabled: false });
  await signIn(context.request);
  const page = await context.newPage();
  await page.goto("/admin/settings/webhooks");
  await page.getByLabel("Call this URL").fill("ftp://example.com/hook");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page).toHaveURL(/\/admin\/settings\/webhooks\/create$/);
  await expect(page.getByText("The URL must start with https:// or http://")).toBeVisible();

  const url = `https://hooks.example.com/plain/${uniqueSuffix()}`;
  await page.getByLabel("Call this URL").fill(url);
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByLabel("Signing secret")).toHaveValue(/^whsec_/);
  await page.getByRole("button", { name: `Remove the webhook calling ${url}` }).click();
  await expect(page.getByText("Webhook removed. Its URL is not called again.")).toBeVisible();
  await context.close();
});
