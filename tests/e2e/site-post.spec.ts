import { formatDate } from "../../app/lib/format.ts";
import { demoPost, draftPosts, expect, publishedPosts, test } from "./site-fixtures.ts";

const READ_POST = "Keep Your Config Objects Honest with TypeScript's satisfies";

test("shows the whole post: cover, category, title, author, date, content and tags", async ({ page, site }) => {
  const post = demoPost(READ_POST);
  await page.goto(`/blog/${site.postId(READ_POST)}`);
  const article = page.getByRole("article").first();
  await expect(article.locator("img").first()).toHaveAttribute("src", new RegExp(`/covers/${post.coverFile}$`));
  await expect(article.getByRole("link", { name: post.category, exact: true })).toHaveAttribute(
    "href",
    `/category/${post.category.toLowerCase()}`,
  );
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(post.title);
  await expect(article.getByText(`By ${post.author}`)).toBeVisible();
  const time = article.locator("header time");
  await expect(time).toHaveText(formatDate((await time.getAttribute("datetime"))!));
  const content = article.locator(".post-content");
  await expect(content.getByRole("heading", { level: 2, name: "The problem with annotations" })).toBeVisible();
  await expect(content.locator("pre code").first()).toContainText("type Route");
  await expect(content.locator("blockquote")).toBeVisible();
  await expect(content.getByRole("link", { name: "TypeScript 4.9" })).toHaveAttribute("href", /^https:/);
  await expect(article.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveText(
    post.tags.map((tag) => `#${tag}`),
  );
  await expect(page).toHaveTitle(`${post.title} | Inkwell`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", post.excerpt);
});

test("links back to all posts and to the rest of its category", async ({ page, site }) => {
  await page.goto(`/blog/${site.postId(READ_POST)}`);
  await page.getByRole("link", { name: "More in Development" }).click();
  await expect(page).toHaveURL(/\/category\/development$/);
  await page.goBack();
  await page.getByRole("link", { name: "All Posts" }).click();
  await expect(page).toHaveURL(/\/blog$/);
});

test("suggests up to 3 other posts from the same category", async ({ page, site }) => {
  for (const post of [publishedPosts[0]!, demoPost(READ_POST)]) {
    await page.goto(`/blog/${site.postId(post.title)}`);
    const related = page.getByRole("region", { name: "Related Posts" }).getByRole("article");
    const sameCategory = publishedPosts.filter(
      (other) => other.category === post.category && other.title !== post.title,
    );
    await expect(related).toHaveCount(Math.min(3, sameCategory.length));
    for (const title of await related.getByRole("heading").allTextContents()) {
      expect(sameCategory.map((other) => other.title)).toContain(title.trim());
    }
  }
});

test.describe("comment counts and order", () => {
  for (const title of [
    "Self-Hosting on a Small VPS: What Actually Matters",
    "SQLite in Production Is Fine, Actually",
    "A Practical Guide to Core Web Vitals",
  ]) {
    test(`"${title}" lists its demo comments newest first`, async ({ page, site }) => {
      const post = demoPost(title);
      const newestFirst = post.comments.toSorted((a, b) => b.hoursAfterPost - a.hoursAfterPost);
      await page.goto(`/blog/${site.postId(title)}`);
      const label = { 0: "0 Comments", 1: "1 Comment" }[newestFirst.length] ?? `${newestFirst.length} Comments`;
      await expect(page.getByRole("heading", { level: 2, name: /Comments?$/ })).toHaveText(label);
      const items = page.getByRole("list", { name: "Comments, newest first" }).getByRole("listitem");
      await expect(items).toHaveCount(newestFirst.length);
      for (const [index, comment] of newestFirst.entries()) {
        await expect(items.nth(index)).toContainText(comment.author);
        await expect(items.nth(index)).toContainText(comment.content);
      }
    });
  }
});

test("a broken cover image becomes an 'Image Not Found' placeholder", async ({ page, site }) => {
  await page.route("**/covers/**", (route) => route.abort());
  await page.goto(`/blog/${site.postId(READ_POST)}`);
  await expect(page.getByRole("img", { name: "Image Not Found" }).first()).toBeVisible();
});

test.describe("posts that cannot be shown", () => {
  test("an unknown id is 404 'Post not found' with back and retry links", async ({ page }) => {
    const response = await page.goto("/blog/NoSuchPost1234");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Post not found");
    await expect(page.getByRole("link", { name: "Back to all posts" })).toHaveAttribute("href", "/blog");
    await expect(page.getByRole("link", { name: "Try again" })).toHaveAttribute("href", "/blog/NoSuchPost1234");
    await expect(page).toHaveTitle("Post not found | Inkwell");
    await page.getByRole("link", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Post not found");
  });

  test("a draft is 404 'This post is not available'", async ({ page, site }) => {
    const response = await page.goto(`/blog/${site.postId(draftPosts[0]!.title)}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This post is not available");
    await expect(page.getByText(draftPosts[0]!.title)).toHaveCount(0);
  });

  test("a blank id is 400 'Post ID is missing'", async ({ page }) => {
    const response = await page.goto("/blog/%20%20");
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Post ID is missing");
    await expect(page.getByRole("link", { name: "Try again" })).toBeVisible();
  });

  test("odd ids never fail the server", async ({ request }) => {
    for (const id of ["x".repeat(10_000), "'%20OR%201=1", "..%2F..%2Fetc%2Fpasswd", "%E0%A4%A", "%00", "🙂"]) {
      const status = (await request.get(`/blog/${id}`)).status();
      expect([400, 404], `/blog/${id.slice(0, 40)}`).toContain(status);
    }
  });
});

test.describe("reading without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the post, its comments and related posts are all in the page", async ({ page, site }) => {
    const post = demoPost("SQLite in Production Is Fine, Actually");
    await page.goto(`/blog/${site.postId(post.title)}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(post.title);
    await expect(page.locator(".post-content h2").first()).toBeVisible();
    await expect(page.getByRole("list", { name: "Comments, newest first" }).getByRole("listitem")).toHaveCount(
      post.comments.length,
    );
    await expect(page.getByRole("region", { name: "Related Posts" }).getByRole("article")).toHaveCount(2);
  });
});
