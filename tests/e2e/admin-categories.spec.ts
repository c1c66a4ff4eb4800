import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { signInThroughForm } from "./admin-support";
import { findFreePort, type StartedServer, startServer, waitForOutput } from "./server-support.ts";

// Its own server: renaming and deleting categories changes what every reader's page shows, which
// the shared servers' specs read.
const OWNER = { email: "owner@example.com", password: "a passphrase nobody guesses" };

test.describe.configure({ mode: "serial" });

let directory: string;
let server: StartedServer;
let url: string;

test.beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "blog-categories-"));
  const port = await findFreePort();
  url = `http://127.0.0.1:${port}`;
  server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: url,
    DATABASE_URL: `file:${directory}/blog.sqlite`,
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
  });
  await waitForOutput(server, /Blog ready at/, 60_000);
});

test.afterAll(async () => {
  server.child.kill("SIGTERM");
  await server.exit;
  rmSync(directory, { recursive: true, force: true });
});

/** The owner, signed in, in a browser without JavaScript: every change here is a plain form. */
async function signedInWithoutScript(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await signInThroughForm(page, OWNER);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/categories");
  return page;
}

const row = (page: Page, slug: string) => page.locator(`[data-category-row="${slug}"]`);

async function postCount(page: Page, slug: string): Promise<number> {
  await page.goto(`/category/${slug}`);
  const text = await page.getByText(/post\(s\) in this category/).textContent();
  return Number(/^(\d+)/.exec(text ?? "")?.[1]);
}

test("a renamed category keeps its old address, page and feeds, as a 301 to the new one", async ({ browser }) => {
  const page = await signedInWithoutScript(browser);
  const designPosts = await postCount(page, "design");
  await page.goto("/admin/categories");
  await row(page, "design").locator("summary", { hasText: "Rename" }).click();
  await page.getByLabel("New name for Design").fill("Visual Design");
  await row(page, "design").getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Categories saved. The site shows them now.")).toBeVisible();
  await expect(row(page, "visual-design")).toContainText("/category/visual-design");

  for (const suffix of ["", "/rss.xml", "/atom.xml", "/feed.json"]) {
    const response = await page.request.get(`/category/design${suffix}`, { maxRedirects: 0 });
    expect(response.status(), suffix).toBe(301);
    expect(response.headers().location, suffix).toBe(`/category/visual-design${suffix}`);
  }
  await page.goto("/category/design");
  await expect(page).toHaveURL(/\/category\/visual-design$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Visual Design");
  expect(await postCount(page, "visual-design")).toBe(designPosts);
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Visual Design" })).toHaveAttribute(
    "href",
    "/category/visual-design",
  );
});

test("a description shows on the category's page and is its meta description", async ({ browser }) => {
  const page = await signedInWithoutScript(browser);
  await row(page, "tutorials").locator("summary", { hasText: "Describe" }).click();
  await page.getByLabel("Description of Tutorials").fill("Step-by-step guides, start to finish.");
  await row(page, "tutorials").getByRole("button", { name: "Save description" }).click();
  await expect(page.getByText("Categories saved. The site shows them now.")).toBeVisible();

  await page.goto("/category/tutorials");
  await expect(page.getByRole("main").getByText("Step-by-step guides, start to finish.")).toBeVisible();
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    "Step-by-step guides, start to finish.",
  );
});

test("the editor offers a category once it is added", async ({ browser }) => {
  const page = await signedInWithoutScript(browser);
  await page.getByLabel("Name", { exact: true }).fill("Travel");
  await page.getByRole("button", { name: "Add category" }).click();
  await expect(page.getByText("Categories saved. The site shows them now.")).toBeVisible();
  await expect(row(page, "travel")).toBeVisible();

  await page.goto("/admin/posts/new");
  await expect(page.getByLabel("Category").locator("option")).toContainText([
    "Development",
    "Technology",
    "Visual Design",
    "Business",
    "Marketing",
    "Tutorials",
    "Travel",
  ]);
});

test("deleting a category moves its posts to the one chosen, and its address follows them", async ({ browser }) => {
  const page = await signedInWithoutScript(browser);
  const marketing = await postCount(page, "marketing");
  const business = await postCount(page, "business");
  expect(marketing).toBeGreaterThan(0);

  await page.goto("/admin/categories");
  await row(page, "marketing").locator("summary", { hasText: "Delete" }).click();
  await row(page, "marketing").getByLabel("Move its posts to").selectOption("Business");
  await row(page, "marketing").getByRole("button", { name: "Delete Marketing" }).click();
  await expect(page.getByText("Categories saved. The site shows them now.")).toBeVisible();
  await expect(row(page, "marketing")).toHaveCount(0);

  expect(await postCount(page, "business")).toBe(marketing + business);
  const response = await page.request.get("/category/marketing", { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe("/category/business");
});
