import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { E2E_SITE_URL } from "../../playwright.config.ts";
import { slugFromTitle } from "../../server/kernel/slugs.ts";
import { expect, publishedPosts, test, useStoredTheme } from "./site-fixtures.ts";

// Read-only against the shared site server (demo content, one account named "admin" with no
// posts). Authors with posts, bios and pictures: admin-author-profile.spec.ts, on its own server.
const TAG = "typescript";
const taggedPosts = publishedPosts.filter((post) => post.tags.some((tag) => tag.toLowerCase() === TAG));

async function scriptsLoaded(page: Page, path: string): Promise<string[]> {
  const loaded: string[] = [];
  const record = (request: import("@playwright/test").Request) => {
    if (request.resourceType() === "script") loaded.push(request.url());
  };
  page.on("request", record);
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  page.off("request", record);
  return loaded;
}

test("a tag page lists the tag's published posts newest first, with its feeds, canonical URL and Open Graph", async ({
  page,
}) => {
  expect(taggedPosts.length).toBeGreaterThan(0);
  const response = await page.goto(`/tag/${TAG}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`#${TAG}`);
  await expect(page.getByRole("main").getByRole("article").getByRole("heading")).toHaveText(
    taggedPosts.map((post) => post.title),
  );
  await expect(page).toHaveTitle(`#${TAG} | Inkwell`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${E2E_SITE_URL}/tag/${TAG}`);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${E2E_SITE_URL}/tag/${TAG}`);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", `#${TAG}`);
  await expect(page.locator(`link[rel="alternate"][href="/tag/${TAG}/rss.xml"]`)).toHaveCount(1);

  const feed = await page.request.get(`/tag/${TAG}/rss.xml`);
  expect(feed.status()).toBe(200);
  const rss = await feed.text();
  for (const post of taggedPosts) expect(rss).toContain(`${E2E_SITE_URL}/blog/${slugFromTitle(post.title)}`);
});

test("tag chips on cards and posts lead to the tag page", async ({ page }) => {
  const post = taggedPosts[0]!;
  await page.goto("/blog");
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: post.title }) });
  await card.getByRole("link", { name: `#${post.tags[0]}` }).click();
  await expect(page).toHaveURL(new RegExp(`/tag/${encodeURIComponent(post.tags[0]!.toLowerCase())}$`));
  await expect(page.getByRole("main").getByRole("article").getByRole("heading", { name: post.title })).toBeVisible();

  await page.getByRole("main").getByRole("article").getByRole("link", { name: post.title }).first().click();
  const article = page.getByRole("main").getByRole("article").first();
  await article
    .getByRole("list", { name: "Tags" })
    .getByRole("link", { name: `#${TAG}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/tag/${TAG}$`));
});

test("the sitemap lists the tags of published posts, and no tag only drafts carry", async ({ request }) => {
  const index = await (await request.get("/sitemap.xml")).text();
  expect(index).toContain(`<loc>${E2E_SITE_URL}/sitemaps/tags.xml</loc>`);
  const tags = await (await request.get("/sitemaps/tags.xml")).text();
  expect(tags).toContain(`<loc>${E2E_SITE_URL}/tag/${TAG}</loc>`);
  const publicTags = new Set(publishedPosts.flatMap((post) => post.tags.map((tag) => tag.toLowerCase())));
  const listed = [...tags.matchAll(/<loc>[^<]+\/tag\/([^<]+)<\/loc>/g)].map((match) => decodeURIComponent(match[1]!));
  expect(listed.toSorted()).toEqual([...publicTags].toSorted());
});

test("an unknown tag or author is the 404 page", async ({ page }) => {
  for (const path of ["/tag/no-such-tag", "/author/no-such-author", `/tag/${TAG}?page=9`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("Page Not Found");
    await expect(page.getByRole("link", { name: "Back to Home" }), path).toBeVisible();
    await expect(page.locator('meta[name="robots"]'), path).toHaveAttribute("content", "noindex");
  }
  expect((await page.request.get("/tag/no-such-tag/rss.xml")).status()).toBe(404);
});

test("an author page names the author, with their feeds, even before they publish", async ({ page }) => {
  const response = await page.goto("/author/admin");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("admin");
  await expect(page.getByText("No posts published yet.")).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${E2E_SITE_URL}/author/admin`);
  expect((await page.request.get("/author/admin/atom.xml")).status()).toBe(200);
});

test("tag and author pages load no application JavaScript", async ({ page }) => {
  for (const path of [`/tag/${TAG}`, "/author/admin"]) {
    expect(await scriptsLoaded(page, path), path).toEqual([]);
    await expect(page.locator('link[rel="modulepreload"]'), path).toHaveCount(0);
  }
});

for (const theme of ["light", "dark"] as const) {
  test(`tag and author pages pass axe in the ${theme} theme`, async ({ page }) => {
    await useStoredTheme(page, theme);
    for (const path of [`/tag/${TAG}`, "/author/admin", "/tag/no-such-tag"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map(
          (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`,
        ),
        `${path} (${theme})`,
      ).toEqual([]);
    }
  });
}
