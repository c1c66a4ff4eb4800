import type { Page } from "@playwright/test";
import { E2E_SITE_URL } from "../../playwright.config.ts";
import { slugFromTitle } from "../../server/kernel/slugs.ts";
import { demoPost, draftPosts, expect, publishedPosts, test } from "./site-fixtures.ts";

const POST_TITLE = "Keep Your Config Objects Honest with TypeScript's satisfies";
const POST_PATH = `/blog/${slugFromTitle(POST_TITLE)}`;

async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
}

async function metaContent(page: Page, key: string): Promise<string | null> {
  return page.locator(`meta[property="${key}"], meta[name="${key}"]`).first().getAttribute("content");
}

test("a post lives at its slug; its id answers 301 there", async ({ page, site, request }) => {
  const response = await request.get(`/blog/${site.postId(POST_TITLE)}`, { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe(POST_PATH);
  await page.goto(`/blog/${site.postId(POST_TITLE)}`);
  await expect(page).toHaveURL(`${E2E_SITE_URL}${POST_PATH}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(POST_TITLE);
});

test("cards link to posts by slug", async ({ page }) => {
  await page.goto("/blog");
  const hrefs = await page
    .locator("article h2 a")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  expect(hrefs).toEqual(publishedPosts.map((post) => `/blog/${slugFromTitle(post.title)}`));
});

test("a post's head: title, excerpt, canonical URL, Open Graph, article times and JSON-LD", async ({ page }) => {
  const post = demoPost(POST_TITLE);
  const issues: unknown[] = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Audits.enable");
  cdp.on("Audits.issueAdded", (event) => issues.push(event.issue));
  await page.goto(POST_PATH);

  const url = `${E2E_SITE_URL}${POST_PATH}`;
  const cover = `${E2E_SITE_URL}/covers/${post.coverFile}`;
  await expect(page).toHaveTitle(`${POST_TITLE} | Inkwell`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  expect(await metaContent(page, "description")).toBe(post.excerpt);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", url);
  expect(await metaContent(page, "og:type")).toBe("article");
  expect(await metaContent(page, "og:url")).toBe(url);
  expect(await metaContent(page, "og:image")).toBe(cover);
  expect(await metaContent(page, "twitter:card")).toBe("summary_large_image");
  expect(await metaContent(page, "twitter:image")).toBe(cover);
  const published = await metaContent(page, "article:published_time");
  expect(new Date(published!).toISOString()).toBe(published);
  expect(await metaContent(page, "article:modified_time")).toBeTruthy();
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);

  const [posting, breadcrumbs] = await jsonLd(page);
  expect(posting).toMatchObject({
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: POST_TITLE,
    image: [cover],
    datePublished: published,
    dateModified: expect.any(String),
    author: { "@type": "Person", name: post.author },
    publisher: { "@type": "Organization", name: "Inkwell" },
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
  });
  expect(breadcrumbs).toMatchObject({ "@type": "BreadcrumbList" });
  expect((breadcrumbs!.itemListElement as { name: string; item: string }[]).map((crumb) => crumb.item)).toEqual([
    `${E2E_SITE_URL}/`,
    `${E2E_SITE_URL}/categories`,
    `${E2E_SITE_URL}/category/${post.category.toLowerCase()}`,
    url,
  ]);
  // The post page once tripped the CSP (zod's eval probe): Chromium must log no issue at all.
  expect(issues).toEqual([]);
});

test("a category's head: breadcrumbs and its own feeds", async ({ page }) => {
  await page.goto("/category/design");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${E2E_SITE_URL}/category/design`);
  const [breadcrumbs] = await jsonLd(page);
  expect(breadcrumbs).toMatchObject({
    "@type": "BreadcrumbList",
    itemListElement: [
      { position: 1, name: "Home" },
      { position: 2, name: "Categories" },
      { position: 3, name: "Design", item: `${E2E_SITE_URL}/category/design` },
    ],
  });
  await expect(page.locator('link[rel="alternate"][href="/category/design/rss.xml"]')).toHaveCount(1);
});

test("every public page names the feeds and canonicalises to itself, keeping only ?page", async ({ page }) => {
  for (const path of ["/", "/blog", "/categories", "/about", "/privacy", "/terms"]) {
    await page.goto(path);
    await expect(page.locator('link[rel="alternate"]'), path).toHaveCount(3);
    await expect(page.locator('link[rel="canonical"]'), path).toHaveAttribute("href", `${E2E_SITE_URL}${path}`);
  }
  await page.goto("/category/design?view=list&page=1");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${E2E_SITE_URL}/category/design?page=1`);
});

test("searches, sign-in, admin and drafts carry noindex", async ({ page, site }) => {
  const draft = draftPosts[0]!;
  for (const path of ["/search?q=design", "/blog?q=design", "/login", "/admin", `/blog/${site.postId(draft.title)}`]) {
    await page.goto(path);
    await expect(page.locator('meta[name="robots"]').first(), path).toHaveAttribute("content", "noindex");
    await expect(page.locator('link[rel="canonical"]'), path).toHaveCount(0);
  }
  const draftHead = await page.locator("head").innerHTML();
  expect(draftHead).not.toContain(draft.title);
  expect(draftHead).not.toContain(draft.excerpt);
});

test("feeds, sitemap and robots.txt are served, and no draft is in any of them", async ({ request }) => {
  const bodies = await Promise.all(
    [
      "/rss.xml",
      "/atom.xml",
      "/feed.json",
      "/category/design/rss.xml",
      "/sitemap.xml",
      "/sitemaps/pages.xml",
      "/sitemaps/posts-1.xml",
      "/robots.txt",
    ].map(async (path) => {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      return response.text();
    }),
  );
  for (const body of bodies) {
    for (const draft of draftPosts) expect(body).not.toContain(slugFromTitle(draft.title));
  }
  expect(bodies[6]).toContain(`${E2E_SITE_URL}${POST_PATH}`);
});
