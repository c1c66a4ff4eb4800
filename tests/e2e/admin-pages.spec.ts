import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { SAME_ORIGIN, signIn, uniqueSuffix } from "./admin-support";

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

/** Makes a page through the plain form, as a browser without JavaScript would. */
async function createPage(request: APIRequestContext, fields: { title: string; slug: string; published?: boolean }) {
  const created = await request.post("/admin/pages/new", {
    form: {
      title: fields.title,
      slug: fields.slug,
      content: "Soon **here**.",
      format: "markdown",
      ...(fields.published ? { published: "on" } : {}),
    },
    headers: SAME_ORIGIN,
    maxRedirects: 0,
  });
  expect(created.status()).toBe(302);
}

test("a page written with the editor's toolbar and preview is public at its address once published", async ({
  page,
}) => {
  const suffix = uniqueSuffix();
  const slug = `now-${suffix}`;
  const title = `What I do now ${suffix}`;
  await page.goto("/admin/pages");
  await expect(page.getByRole("heading", { level: 1, name: "Pages" })).toBeVisible();
  await page.getByRole("link", { name: "New page" }).click();
  await expect(page).toHaveURL(/\/admin\/pages\/new$/);

  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Slug").fill(slug);
  const content = page.getByLabel("Content");
  await content.click();
  await content.pressSequentially("Mostly ");
  await page.getByRole("toolbar", { name: "Markdown toolbar" }).getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type("gardening");
  await expect(page.getByRole("region", { name: "Preview" }).locator("strong")).toHaveText("gardening");
  await page.getByLabel("Publish this page").check();
  await page.getByRole("button", { name: "Create Page" }).click();

  await expect(page).toHaveURL(/\/admin\/pages$/);
  await expect(page.getByRole("status").filter({ hasText: "Page created." })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row.getByText("Published")).toBeVisible();
  await expect(row.getByRole("link", { name: new RegExp(`/${slug}`) })).toBeVisible();

  await page.goto(`/${slug}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.locator("strong", { hasText: "gardening" })).toBeVisible();
});

test("a slug the site keeps is refused beside the Slug field, and what was typed stays", async ({ page }) => {
  await page.goto("/admin/pages/new");
  await page.getByLabel("Title").fill("My blog");
  await page.getByLabel("Slug").fill("blog");
  await page.getByLabel("Content").fill("Words.");
  await page.getByRole("button", { name: "Create Page" }).click();
  await expect(page.getByText("The address /blog belongs to the site itself. Choose another slug.")).toBeVisible();
  await expect(page.getByLabel("Slug")).toHaveValue("blog");
  await expect(page.getByLabel("Content")).toHaveValue("Words.");
});

test("a built-in page's editor says readers see its original design, and the list and editor pass axe", async ({
  page,
}) => {
  await page.goto("/admin/pages");
  const violations = async () =>
    (await new AxeBuilder({ page }).analyze()).violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  expect(await violations()).toEqual([]);
  await page.getByRole("link", { name: "Terms of Service", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible();
  await expect(page.getByRole("note")).toHaveText("Readers see this page's original design until you save it.");
  await expect(page.getByLabel("Show the date it was last updated")).toBeChecked();
  await expect(page.getByRole("region", { name: "Preview" }).getByRole("heading", { level: 2 }).first()).toBeVisible();
  expect(await violations()).toEqual([]);
});

test("deleting a page asks Confirm? in place; Yes removes it and its address", async ({ page }) => {
  const slug = `gone-${uniqueSuffix()}`;
  await createPage(page.request, { title: `Gone ${slug}`, slug, published: true });
  expect((await page.request.get(`/${slug}`)).status()).toBe(200);

  await page.goto("/admin/pages");
  const row = page.getByRole("row").filter({ hasText: `Gone ${slug}` });
  await row.getByRole("link", { name: `Delete Gone ${slug}` }).click();
  await expect(row.getByText("Confirm?")).toBeVisible();
  await row.getByRole("link", { name: "No" }).click();
  await expect(row.getByText("Confirm?")).toHaveCount(0);
  await row.getByRole("link", { name: `Delete Gone ${slug}` }).click();
  await row.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Page deleted." })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: `Gone ${slug}` })).toHaveCount(0);
  expect((await page.request.get(`/${slug}`)).status()).toBe(404);
});

test("a draft page's preview link shows it to someone signed out, until it is revoked", async ({ page, browser }) => {
  const slug = `draft-${uniqueSuffix()}`;
  const title = `Draft ${slug}`;
  await createPage(page.request, { title, slug });
  await page.goto("/admin/pages");
  await page.getByRole("link", { name: title, exact: true }).click();
  await page.getByRole("button", { name: "Share a preview" }).click();
  const link = await page.getByLabel(/Preview link/).inputValue();
  expect(link).toMatch(new RegExp(`^${E2E_ADMIN_URL}/preview/page/[A-Za-z0-9_-]{43}$`));

  const visitor = await browser.newContext();
  const reader = await visitor.newPage();
  const response = await reader.goto(link);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-robots-tag"]).toBe("noindex");
  await expect(reader.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(reader.getByRole("note")).toContainText("Preview: this page is not published yet");
  expect((await reader.goto(`/${slug}`))?.status()).toBe(404);

  await page.getByRole("button", { name: "Revoke preview links" }).click();
  await expect(page.getByRole("button", { name: "Revoke preview links" })).toHaveCount(0);
  expect((await reader.goto(link))?.status()).toBe(404);
  await visitor.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain form creates a published page, and refuses a reserved slug with its reason", async ({ page }) => {
    await page.goto("/admin/pages/new");
    await expect(page.getByRole("toolbar", { name: "Markdown toolbar" })).toHaveCount(0);
    await page.getByLabel("Title").fill("Uses");
    await page.getByLabel("Slug").fill("Admin");
    await page.getByLabel("Content").fill("A pen and **paper**.");
    await page.getByLabel("Publish this page").check();
    await page.getByRole("button", { name: "Create Page" }).click();
    await expect(page.getByText("The address /admin belongs to the site itself. Choose another slug.")).toBeVisible();

    const slug = `uses-${uniqueSuffix()}`;
    await page.getByLabel("Slug").fill(slug);
    await page.getByRole("button", { name: "Create Page" }).click();
    await expect(page).toHaveURL(/\/admin\/pages$/);
    await expect(page.getByRole("status").filter({ hasText: "Page created." })).toBeVisible();

    await page.goto(`/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name: "Uses" })).toBeVisible();
    await expect(page.locator("strong", { hasText: "paper" })).toBeVisible();
  });
});
