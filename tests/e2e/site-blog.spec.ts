import { expect, demoSearch, publishedPosts, test } from "./site-fixtures.ts";

const cardTitles = (page: import("@playwright/test").Page) =>
  page.getByRole("main").getByRole("article").getByRole("heading", { level: 2 });

test("/blog lists every published post, newest first", async ({ page }) => {
  await page.goto("/blog");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Blog Posts");
  await expect(cardTitles(page)).toHaveText(publishedPosts.map((post) => post.title));
  await expect(page.getByRole("search", { name: "Search posts" }).getByRole("searchbox")).toHaveValue("");
  await expect(page.getByRole("status")).toHaveCount(0);
});

test("/search without a query is the same list", async ({ page }) => {
  const response = await page.goto("/search");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Blog Posts");
  await expect(cardTitles(page)).toHaveCount(publishedPosts.length);
});

test("searching filters on the server, case-insensitively, over titles, text and tags", async ({ page, request }) => {
  const expected = demoSearch("SQLite");
  expect(expected.length).toBeGreaterThan(1);
  const html = await (await request.get("/search?q=SQLite")).text();
  expect(html).toContain(`${expected.length} results found for &quot;SQLite&quot;`);

  await page.goto("/blog");
  const search = page.getByRole("search", { name: "Search posts" });
  await search.getByRole("searchbox").fill("SQLite");
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/search\?q=SQLite$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search Results");
  await expect(page.getByRole("status")).toHaveText(`${expected.length} results found for "SQLite"`);
  await expect(cardTitles(page)).toHaveText(expected.map((post) => post.title));
  await expect(search.getByRole("searchbox")).toHaveValue("SQLite");
});

test("a single match is counted as '1 result'", async ({ page }) => {
  const query = "satisfies";
  expect(demoSearch(query)).toHaveLength(1);
  await page.goto(`/search?q=${query}`);
  await expect(page.getByRole("status")).toHaveText("1 result");
  await expect(cardTitles(page)).toHaveText([demoSearch(query)[0]!.title]);
});

test("no match offers to clear the search", async ({ page }) => {
  await page.goto("/search?q=no-such-words-anywhere");
  await expect(page.getByRole("status")).toHaveText('0 results found for "no-such-words-anywhere"');
  await expect(page.getByText("No posts match your search criteria.")).toBeVisible();
  await page.getByRole("link", { name: "Clear search and show all posts" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(cardTitles(page)).toHaveCount(publishedPosts.length);
});

test.describe("hostile queries", () => {
  test("a 10,000-character query is cut, answered quickly and never fails", async ({ request }) => {
    const started = Date.now();
    const response = await request.get(`/search?q=${"a".repeat(10_000)}`);
    expect(response.status()).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    const html = await response.text();
    expect(html).toContain(`0 results found for &quot;${"a".repeat(200)}&quot;`);
    expect(html).not.toContain("a".repeat(201));
  });

  for (const query of [
    "%",
    "_",
    "'",
    '"',
    "\\",
    ".*",
    "(",
    "[a-z]+",
    "' OR 1=1 --",
    '"; DROP TABLE posts; --',
    "*",
    "NEAR(",
    "^$",
  ]) {
    test(`treats ${JSON.stringify(query)} as plain text`, async ({ page }) => {
      const expected = demoSearch(query);
      const response = await page.goto(`/search?q=${encodeURIComponent(query)}`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("status")).toHaveText(
        expected.length === 1 ? "1 result" : `${expected.length} results found for "${query}"`,
      );
      await expect(cardTitles(page)).toHaveText(expected.map((post) => post.title));
    });
  }

  test("malformed percent-encoding in q is read literally", async ({ request }) => {
    const response = await request.get("/search?q=%E0%A4%A");
    expect(response.status()).toBe(200);
  });
});
