import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { createPost, SAME_ORIGIN, signIn, uniqueSuffix } from "./admin-support";

/** A visitor address of its own (benchmarking range), so per-address rules never join two tests. */
function newAddress(): string {
  const [a, b] = randomBytes(2);
  return `198.19.${a}.${b}`;
}

const THREE_LINKS = "https://a.example https://b.example https://c.example";

function postComment(request: APIRequestContext, postId: string, form: Record<string, string>, address: string) {
  return request.post(`/blog/${postId}`, {
    form,
    headers: { ...SAME_ORIGIN, "X-Forwarded-For": address },
    maxRedirects: 0,
  });
}

async function visitorPage(browser: Browser, address: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: E2E_ADMIN_URL,
    extraHTTPHeaders: { "X-Forwarded-For": address },
  });
  return context.newPage();
}

const commentItems = (page: Page) => page.getByRole("list", { name: "Comments, newest first" }).getByRole("listitem");
const tab = (page: Page, name: RegExp) =>
  page.getByRole("navigation", { name: "Comment status" }).getByRole("link", { name });

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

test("a held comment is shown to its writer only, until the writer of the blog approves it", async ({
  page,
  browser,
}) => {
  const suffix = uniqueSuffix();
  const post = await createPost(page.request, { title: `Moderated post ${suffix}`, published: true });
  const text = `Links for you ${suffix}: ${THREE_LINKS}`;

  const writer = await visitorPage(browser, newAddress());
  await writer.goto(`/blog/${post.id}`);
  await writer.getByLabel("Name", { exact: true }).fill(`Linker ${suffix}`);
  await writer.getByLabel("Comment", { exact: true }).fill(text);
  await writer.getByRole("button", { name: "Post Comment" }).click();
  const held = commentItems(writer).filter({ hasText: text });
  await expect(held).toContainText("Your comment is awaiting moderation");
  await expect(writer.getByLabel("Comment", { exact: true })).toHaveValue("");
  await expect(writer.getByRole("heading", { level: 2, name: "0 Comments" })).toBeVisible();
  await writer.reload();
  await expect(commentItems(writer).filter({ hasText: text })).toContainText("Your comment is awaiting moderation");

  const stranger = await visitorPage(browser, newAddress());
  await stranger.goto(`/blog/${post.id}`);
  await expect(stranger.getByRole("heading", { level: 2, name: "0 Comments" })).toBeVisible();
  await expect(stranger.getByText(text)).toHaveCount(0);

  await page.goto(`/admin/comments?q=${suffix}`);
  await expect(page).toHaveURL(new RegExp(`/admin/comments\\?status=pending&q=${suffix}$`));
  await expect(tab(page, /^Pending \(1\)$/)).toHaveAttribute("aria-current", "page");
  const row = page.getByRole("row").filter({ hasText: `Linker ${suffix}` });
  await expect(row).toContainText("3 links");
  await expect(row.getByRole("cell").nth(5)).toHaveText(/^[0-9a-f]{10}$/);
  await expect(row.getByRole("link", { name: `Moderated post ${suffix}` })).toHaveAttribute(
    "href",
    `/blog/${post.slug}`,
  );
  await row.getByRole("button", { name: `Approve the comment by Linker ${suffix}` }).click();
  await expect(row).toHaveCount(0);
  await expect(tab(page, /^Approved \(1\)$/)).toBeVisible();
  await expect(tab(page, /^Pending \(0\)$/)).toHaveAttribute("aria-current", "page");

  await stranger.reload();
  await expect(commentItems(stranger).filter({ hasText: text })).not.toContainText("awaiting moderation");
  await expect(stranger.getByRole("heading", { level: 2, name: "1 Comment" })).toBeVisible();
});

test("comments marked as spam in bulk move to the Spam tab, and are deleted in bulk", async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const post = await createPost(page.request, { title: `Spammed post ${suffix}`, published: true });
  for (const author of ["First", "Second"]) {
    const response = await postComment(request, post.id, { author, content: `Cheap stuff ${suffix}` }, newAddress());
    expect(response.status()).toBe(303);
  }
  await page.goto(`/admin/comments?status=approved&q=${suffix}`);
  await page.getByRole("checkbox", { name: "Select the comment by First" }).check();
  await page.getByRole("checkbox", { name: "Select the comment by Second" }).check();
  await page.getByRole("button", { name: "Mark as spam selected" }).click();
  await expect(tab(page, /^Spam \(2\)$/)).toBeVisible();
  await expect(page.getByText("No approved comments match your search.")).toBeVisible();

  await tab(page, /^Spam/).click();
  await expect(page.getByRole("row").filter({ hasText: "Marked as spam" })).toHaveCount(2);
  await page.getByRole("checkbox", { name: "Select the comment by First" }).check();
  await page.getByRole("checkbox", { name: "Select the comment by Second" }).check();
  await page.getByRole("button", { name: "Delete selected" }).click();
  await expect(tab(page, /^Spam \(0\)$/)).toBeVisible();
  await page.goto(`/blog/${post.id}`);
  await expect(page.getByText(`Cheap stuff ${suffix}`)).toHaveCount(0);
});

test("a blocklisted word holds a comment; the settings form saves it", async ({ page, request }) => {
  const word = `blocked${uniqueSuffix()}`;
  await page.goto("/admin/comments");
  await page.getByRole("link", { name: "Comment settings" }).click();
  await page.getByLabel("Blocklist").fill(word);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Comment settings saved." })).toBeVisible();
  await expect(page.getByLabel("Blocklist")).toHaveValue(word);

  const post = await createPost(page.request, { title: `Blocklist post ${word}`, published: true });
  const response = await postComment(request, post.id, { author: "Ann", content: `I say ${word}` }, newAddress());
  expect(response.status()).toBe(303);
  await page.goto(`/admin/comments?status=pending&q=${word}`);
  await expect(page.getByRole("row").filter({ hasText: `Blocklist: ${word}` })).toHaveCount(1);

  await page.goto("/admin/comments/settings");
  await page.getByLabel("Close comments on posts older than (days)").fill("0");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Enter a whole number of days from 1")).toBeVisible();
  await page.getByLabel("Blocklist").fill("");
  await page.getByLabel("Close comments on posts older than (days)").fill("");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Comment settings saved." })).toBeVisible();
});

test("a post with comments closed says so, and the server refuses comments to it", async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const post = await createPost(page.request, { title: `Closed post ${suffix}`, published: true });
  await page.goto(`/admin/posts/edit/${post.id}`);
  await expect(page.getByRole("link", { name: "Comments on this post" })).toHaveAttribute(
    "href",
    `/admin/comments?post=${post.id}`,
  );
  await page.getByLabel("Close comments").check();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);

  await page.goto(`/blog/${post.id}`);
  await expect(page.getByText("Comments are closed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Post Comment" })).toHaveCount(0);
  const refused = await postComment(request, post.id, { author: "Ann", content: "Hello" }, newAddress());
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("Comments are closed");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("approving a held comment is a plain form that comes back to the list", async ({ page, request }) => {
    const suffix = uniqueSuffix();
    const post = await createPost(page.request, { title: `No-JS moderation ${suffix}`, published: true });
    const form = { author: `Plain ${suffix}`, content: `${suffix} ${THREE_LINKS}` };
    expect((await postComment(request, post.id, form, newAddress())).status()).toBe(303);

    await page.goto(`/admin/comments?status=pending&q=${suffix}`);
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === "POST"),
      page.getByRole("button", { name: `Approve the comment by Plain ${suffix}` }).click(),
    ]);
    expect(response.status()).toBe(303);
    await expect(page).toHaveURL(new RegExp(`/admin/comments\\?status=pending&q=${suffix}$`));
    await expect(page.getByText("No pending comments match your search.")).toBeVisible();
    await page.goto(`/blog/${post.id}`);
    await expect(commentItems(page).filter({ hasText: suffix })).toHaveCount(1);
  });
});

for (const theme of ["light", "dark"] as const) {
  test(`the Comments screen passes axe in the ${theme} theme`, async ({ page, request }) => {
    const suffix = uniqueSuffix();
    const post = await createPost(page.request, { title: `Axe post ${suffix}`, published: true });
    const long = `${suffix} ${"A long comment that needs clipping. ".repeat(8)}${THREE_LINKS}`;
    expect((await postComment(request, post.id, { author: "Axe", content: long }, newAddress())).status()).toBe(303);
    await page.addInitScript((value) => localStorage.setItem("theme", value), theme);
    await page.goto(`/admin/comments?status=pending&q=${suffix}`);
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await expect(page.getByRole("row").filter({ hasText: suffix })).toHaveCount(1);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)).toEqual([]);
    await page.goto("/admin/comments/settings");
    const settings = await new AxeBuilder({ page }).analyze();
    expect(settings.violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)).toEqual([]);
  });
}
