import type { Locator } from "@playwright/test";
import { formatDate, truncate } from "../../app/lib/format.ts";
import { categoryOrder, expect, publishedPosts, test } from "./site-fixtures.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a card shows, read the way a visitor reads it. */
async function readCard(card: Locator) {
  return {
    title: (await card.getByRole("heading").textContent())?.trim(),
    excerpt: (await card.locator("p").first().textContent())?.trim(),
    tags: (await card.getByRole("list", { name: "Tags" }).getByRole("listitem").allTextContents()).map((tag) =>
      tag.replace(/^#/, ""),
    ),
  };
}

test("leads with a hero and a link to every post", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "View all posts" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Blog Posts");
});

test("features the newest post with 120 characters of its excerpt and up to 3 tags", async ({ page }) => {
  const newest = publishedPosts[0]!;
  await page.goto("/");
  const section = page.getByRole("region", { name: "Featured Post" });
  const cards = section.getByRole("article");
  await expect(cards).toHaveCount(1);
  expect(await readCard(cards)).toEqual({
    title: newest.title,
    excerpt: truncate(newest.excerpt, 120),
    tags: newest.tags.slice(0, 3),
  });
  expect(newest.excerpt.length, "the demo excerpt is long enough to be cut").toBeGreaterThan(120);
});

test("lists the next 6 posts with 100 characters of excerpt and 2 tags each", async ({ page }) => {
  const expected = publishedPosts.slice(1, 7);
  await page.goto("/");
  const cards = page.getByRole("region", { name: "Latest Posts" }).getByRole("article");
  await expect(cards).toHaveCount(6);
  for (const [index, post] of expected.entries()) {
    expect(await readCard(cards.nth(index))).toEqual({
      title: post.title,
      excerpt: truncate(post.excerpt, 100),
      tags: post.tags.slice(0, 2),
    });
  }
  expect(
    expected.some((post) => post.tags.length > 2),
    "some demo post has more tags than a card shows",
  ).toBe(true);
});

test("browses every category with its 3 newest posts and a 'More in' link", async ({ page }) => {
  await page.goto("/");
  const browse = page.getByRole("region", { name: "Browse by Category" });
  for (const category of categoryOrder) {
    const section = browse.getByRole("region", { name: category, exact: true });
    const expected = publishedPosts.filter((post) => post.category === category).slice(0, 3);
    await expect(section.getByRole("article")).toHaveCount(expected.length);
    await expect(section.getByRole("article").getByRole("heading")).toHaveText(expected.map((post) => post.title));
    await expect(section.getByRole("link", { name: `More in ${category}` })).toHaveAttribute(
      "href",
      `/category/${category.toLowerCase()}`,
    );
  }
});

test("dates cards en-US long, matching each post's age", async ({ page }) => {
  await page.goto("/");
  const times = page.getByRole("region", { name: "Latest Posts" }).locator("time");
  await expect(times).toHaveCount(6);
  for (const [index, post] of publishedPosts.slice(1, 7).entries()) {
    const time = times.nth(index);
    const iso = (await time.getAttribute("datetime"))!;
    await expect(time).toHaveText(formatDate(iso));
    await expect(time).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    const ageInDays = (Date.now() - Date.parse(iso)) / DAY_MS;
    expect(Math.abs(ageInDays - post.daysAgo)).toBeLessThan(1);
  }
});

test("is rendered on the server: the featured post is in the HTML", async ({ request }) => {
  const response = await request.get("/");
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toMatch(new RegExp(`>Featured Post</h2>[\\s\\S]*>${publishedPosts[0]!.title}</a>`));
  expect(html).toContain("Latest Posts");
  expect(html).toContain("Browse by Category");
});
