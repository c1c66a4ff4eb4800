import { truncate } from "../../app/lib/format.ts";
import { expect, publishedPosts, test } from "./site-fixtures.ts";

const developmentPosts = publishedPosts.filter((post) => post.category === "Development");

test("a category lists its published posts newest first, with the spec's count", async ({ page }) => {
  const response = await page.goto("/category/development");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Development");
  await expect(page.getByText(`${developmentPosts.length} post(s) in this category`)).toBeVisible();
  await expect(page.getByRole("main").getByRole("article").getByRole("heading")).toHaveText(
    developmentPosts.map((post) => post.title),
  );
  await expect(page).toHaveTitle("Development | Inkwell");
});

test("the route value's first letter is capitalised for the lookup", async ({ page }) => {
  await page.goto("/category/Development");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Development");
});

test("an unknown category is 404 'Category not found'", async ({ page }) => {
  for (const path of ["/category/cooking", "/category/DEVELOPMENT", "/category/%20"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("Category not found");
  }
  await expect(page.getByRole("link", { name: "All categories" })).toHaveAttribute("href", "/categories");
});

test("switches between grid and list by mouse and by keyboard, remembering the choice in the address", async ({
  page,
}) => {
  await page.goto("/category/design");
  const grid = page.getByRole("button", { name: "Grid" });
  const list = page.getByRole("button", { name: "List" });
  const posts = page.locator("[data-view]");
  await expect(grid).toHaveAttribute("aria-pressed", "true");
  await expect(list).toHaveAttribute("aria-pressed", "false");
  await expect(posts).toHaveAttribute("data-view", "grid");

  await list.click();
  await expect(page).toHaveURL(/\/category\/design\?view=list$/);
  await expect(list).toHaveAttribute("aria-pressed", "true");
  await expect(posts).toHaveAttribute("data-view", "list");

  await grid.focus();
  await page.keyboard.press("Space");
  await expect(grid).toHaveAttribute("aria-pressed", "true");
  await expect(posts).toHaveAttribute("data-view", "grid");
  await list.focus();
  await page.keyboard.press("Enter");
  await expect(posts).toHaveAttribute("data-view", "list");
  await expect(page).toHaveURL(/\/category\/design\?view=list$/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the view toggle still works through ?view=", async ({ page }) => {
    await page.goto("/category/business");
    await page.getByRole("button", { name: "List" }).click();
    await expect(page).toHaveURL(/\/category\/business\?view=list$/);
    await expect(page.locator("[data-view]")).toHaveAttribute("data-view", "list");
    await expect(page.getByRole("button", { name: "List" })).toHaveAttribute("aria-pressed", "true");
  });
});

test("/categories has one card per category, by count, with 80 characters of its newest excerpt", async ({ page }) => {
  const byCategory = Map.groupBy(publishedPosts, (post) => post.category);
  const expected = [...byCategory]
    .map(([category, posts]) => ({ category, count: posts.length, excerpt: posts[0]!.excerpt }))
    .toSorted((a, b) => b.count - a.count || a.category.localeCompare(b.category));

  await page.goto("/categories");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Categories");
  const cards = page.getByRole("main").getByRole("article");
  await expect(cards).toHaveCount(expected.length);
  for (const [index, { category, count, excerpt }] of expected.entries()) {
    const card = cards.nth(index);
    await expect(card.getByRole("heading")).toHaveText(category);
    await expect(card.getByRole("link", { name: category, exact: true })).toHaveAttribute(
      "href",
      `/category/${category.toLowerCase()}`,
    );
    await expect(card.getByText(count === 1 ? "1 post" : `${count} posts`, { exact: true })).toBeVisible();
    await expect(card.getByText(truncate(excerpt, 80), { exact: true })).toBeVisible();
  }
  expect(expected.every(({ excerpt }) => excerpt.length > 80)).toBe(true);
});
