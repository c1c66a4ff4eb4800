import { randomBytes } from "node:crypto";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN, E2E_ADMIN_URL } from "../../playwright.config";
import { createPost, SAME_ORIGIN, signIn, uniqueSuffix, withDatabase } from "./admin-support";

// These tests write comments, so they use posts of their own on the admin server (its own database):
// the public site's demo posts, which other specs count, stay as they are.

/** A visitor address of this test's own (benchmarking range), so per-address rules never join two tests. */
function newAddress(): string {
  const [a, b] = randomBytes(2);
  return `198.18.${a}.${b}`;
}

async function visitor(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({
    baseURL: E2E_ADMIN_URL,
    javaScriptEnabled,
    extraHTTPHeaders: { "X-Forwarded-For": newAddress() },
  });
  return context.newPage();
}

/** The signed-in writer's browser, and a post of their own with a reader's question under it. */
async function postWithQuestion(browser: Browser, javaScriptEnabled = true) {
  const writer = await visitor(browser, javaScriptEnabled);
  await signIn(writer.request);
  const suffix = uniqueSuffix();
  const post = await createPost(writer.request, { title: `Replies ${suffix}`, published: true });
  const question = `Does this work on plane irons? ${suffix}`;
  await postComment(await anonymousRequest(browser), post.id, {
    author: `Ann ${suffix}`,
    content: question,
  });
  return { writer, post, suffix, asker: `Ann ${suffix}`, question };
}

async function anonymousRequest(browser: Browser): Promise<APIRequestContext> {
  const context = await browser.newContext({ baseURL: E2E_ADMIN_URL });
  return context.request;
}

async function postComment(request: APIRequestContext, postId: string, form: Record<string, string>) {
  const response = await request.post(`/blog/${postId}`, {
    form: { website: "", ...form },
    headers: { ...SAME_ORIGIN, "X-Forwarded-For": newAddress() },
    maxRedirects: 0,
  });
  expect(response.status(), "the comment is taken").toBe(303);
}

const threads = (page: Page) => page.getByRole("list", { name: "Comments, newest first" });
const repliesTo = (page: Page, author: string) => page.getByRole("list", { name: `Replies to ${author}` });
const writerName = () =>
  withDatabase(
    (db) =>
      (db.prepare("select display_name from admins where email = ?").get(E2E_ADMIN.email) as { display_name: string })
        .display_name,
  );

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test("the writer's reply appears under the question, marked as the author's, and the question stays first", async ({
      browser,
    }) => {
      const { writer, post, asker, question } = await postWithQuestion(browser, javaScriptEnabled);
      await writer.goto(`/blog/${post.id}`);
      await threads(writer)
        .getByRole("link", { name: `Reply to ${asker}` })
        .click();
      await expect(writer).toHaveURL(/\?replyTo=[\w-]+#comment-form$/);
      await expect(writer.getByText(`Replying to ${asker}`)).toBeVisible();
      await expect(writer.getByText(`Commenting as ${writerName()}`)).toBeVisible();
      await expect(writer.getByLabel("Name", { exact: true })).toHaveCount(0);
      const answer = `Yes, the same way. ${uniqueSuffix()}`;
      await writer.getByLabel("Comment", { exact: true }).fill(answer);
      await writer.getByRole("button", { name: "Post Reply" }).click();

      await expect(writer).toHaveURL(/#comment-[\w-]+$/);
      const reply = repliesTo(writer, asker).getByRole("listitem");
      await expect(reply).toHaveCount(1);
      await expect(reply).toContainText(answer);
      await expect(reply).toContainText(writerName());
      await expect(reply.getByText("Author", { exact: true })).toBeVisible();
      // The question opens its thread; its answer sits inside it, not above it.
      const first = threads(writer).locator(":scope > li").first();
      await expect(first.locator("p").nth(1)).toHaveText(question);
      await expect(writer.getByRole("heading", { level: 2, name: "2 Comments" })).toBeVisible();
      await expect(writer.getByText("Replying to")).toHaveCount(0);

      const reader = await visitor(browser, javaScriptEnabled);
      await reader.goto(`/blog/${post.id}`);
      await expect(repliesTo(reader, asker).getByRole("listitem")).toContainText(answer);
      await expect(repliesTo(reader, asker).getByText("Author", { exact: true })).toBeVisible();
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a reader replies through a link and the same form, and can cancel the reply", async ({ browser }) => {
    const { post, asker, suffix } = await postWithQuestion(browser);
    const reader = await visitor(browser, false);
    await reader.goto(`/blog/${post.id}`);
    await threads(reader)
      .getByRole("link", { name: `Reply to ${asker}` })
      .click();
    await expect(reader.getByText(`Replying to ${asker}`)).toBeVisible();
    await reader.getByRole("link", { name: "Cancel reply" }).click();
    await expect(reader).toHaveURL(new RegExp(`/blog/${post.slug}#comment-[\\w-]+$`));
    await expect(reader.getByText("Replying to")).toHaveCount(0);
    await expect(reader.getByRole("button", { name: "Post Comment" })).toBeVisible();

    await threads(reader)
      .getByRole("link", { name: `Reply to ${asker}` })
      .click();
    const text = `Me too! ${suffix}`;
    await reader.getByLabel("Name", { exact: true }).fill(`Bob ${suffix}`);
    await reader.getByLabel("Comment", { exact: true }).fill(text);
    await reader.getByRole("button", { name: "Post Reply" }).click();
    const reply = repliesTo(reader, asker).getByRole("listitem");
    await expect(reply).toContainText(text);
    await expect(reply.getByText("Author", { exact: true })).toHaveCount(0);
    // A reply to that reply joins the same thread, after it.
    await reply.getByRole("link", { name: `Reply to Bob ${suffix}` }).click();
    await expect(reader.getByText(`Replying to Bob ${suffix}`)).toBeVisible();
  });

  test("a reader's reply the policy holds is shown under its comment to them only", async ({ browser }) => {
    const { post, asker, suffix } = await postWithQuestion(browser);
    const reader = await visitor(browser, false);
    await reader.goto(`/blog/${post.id}`);
    await threads(reader)
      .getByRole("link", { name: `Reply to ${asker}` })
      .click();
    const text = `See https://a.example https://b.example https://c.example ${suffix}`;
    await reader.getByLabel("Name", { exact: true }).fill(`Linker ${suffix}`);
    await reader.getByLabel("Comment", { exact: true }).fill(text);
    await reader.getByRole("button", { name: "Post Reply" }).click();
    const held = repliesTo(reader, asker).getByRole("listitem");
    await expect(held).toContainText(text);
    await expect(held).toContainText("Your comment is awaiting moderation");
    await expect(reader.getByRole("heading", { level: 2, name: "1 Comment" })).toBeVisible();

    const stranger = await visitor(browser, false);
    await stranger.goto(`/blog/${post.id}`);
    await expect(stranger.getByText(text)).toHaveCount(0);
  });

  test("a refused comment comes back to the form, in view and focused, with its message and its text", async ({
    browser,
  }) => {
    const { post, asker, suffix } = await postWithQuestion(browser);
    const reader = await visitor(browser, false);
    await reader.goto(`/blog/${post.id}`);
    await threads(reader)
      .getByRole("link", { name: `Reply to ${asker}` })
      .click();
    const text = `A reply without a name ${suffix}`;
    await reader.getByLabel("Comment", { exact: true }).fill(text);
    await reader.getByRole("button", { name: "Post Reply" }).click();
    await expect(reader).toHaveURL(/\?replyTo=[\w-]+$/);
    await expect(reader.getByText("Please enter your name")).toBeInViewport();
    await expect(reader.getByLabel("Name", { exact: true })).toBeFocused();
    await expect(reader.getByText(`Replying to ${asker}`)).toBeInViewport();
    await expect(reader.getByLabel("Comment", { exact: true })).toHaveValue(text);
    await expect(reader.getByLabel("Comment", { exact: true })).toBeInViewport();

    // A top-level comment refused by the server (the same text twice) comes back the same way.
    const again = `Said once ${suffix}`;
    await reader.getByRole("link", { name: "Cancel reply" }).click();
    await reader.getByLabel("Name", { exact: true }).fill(`Cy ${suffix}`);
    await reader.getByLabel("Comment", { exact: true }).fill(again);
    await reader.getByRole("button", { name: "Post Comment" }).click();
    await expect(threads(reader).getByText(again)).toBeVisible();
    await reader.getByLabel("Name", { exact: true }).fill(`Cy ${suffix}`);
    await reader.getByLabel("Comment", { exact: true }).fill(again);
    await reader.getByRole("button", { name: "Post Comment" }).click();
    await expect(reader).toHaveURL(new RegExp(`/blog/${post.slug}$`));
    await expect(
      reader.getByText(/You have already posted this comment|You are posting comments too quickly/),
    ).toBeInViewport();
    await expect(reader.getByLabel("Comment", { exact: true })).toHaveValue(again);
    await expect(reader.getByLabel("Comment", { exact: true })).toBeInViewport();
    await expect(reader.getByLabel("Comment", { exact: true })).toBeFocused();
  });
});
