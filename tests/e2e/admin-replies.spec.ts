import { randomBytes } from "node:crypto";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { createPost, SAME_ORIGIN, signIn, uniqueSuffix } from "./admin-support";

/** A visitor address of this test's own (benchmarking range), so per-address rules never join two tests. */
function newAddress(): string {
  const [a, b] = randomBytes(2);
  return `198.19.${a}.${b}`;
}

const THREE_LINKS = "https://a.example https://b.example https://c.example";

async function postComment(request: APIRequestContext, postId: string, form: Record<string, string>) {
  const response = await request.post(`/blog/${postId}`, {
    form: { website: "", ...form },
    headers: { ...SAME_ORIGIN, "X-Forwarded-For": newAddress() },
    maxRedirects: 0,
  });
  expect(response.status(), "the comment is taken").toBe(303);
}

/** A published post of the test's own with one reader's comment; `held` makes the policy hold it. */
async function postWithComment(page: Page, request: APIRequestContext, held = false) {
  const suffix = uniqueSuffix();
  const post = await createPost(page.request, { title: `Admin replies ${suffix}`, published: true });
  const author = `Ann ${suffix}`;
  const content = held ? `Look ${suffix} ${THREE_LINKS}` : `A question ${suffix}`;
  await postComment(request, post.id, { author, content });
  return { post, suffix, author, content };
}

const row = (page: Page, text: string) => page.getByRole("row").filter({ hasText: text });
/** A comment's row by its author: a reply's row names the comment it answers too. */
const rowBy = (page: Page, author: string) =>
  page.getByRole("row").filter({ has: page.getByLabel(`Select the comment by ${author}`, { exact: true }) });
const repliesTo = (page: Page, author: string) => page.getByRole("list", { name: `Replies to ${author}` });

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

test("the writer replies from the Comments screen; the reply shows its thread there and under the comment on the post", async ({
  page,
  request,
}) => {
  const { post, suffix, author } = await postWithComment(page, request);
  await page.goto(`/admin/comments?status=approved&q=${suffix}`);
  const question = rowBy(page, author);
  await question.getByText(`Reply to ${author}`, { exact: true }).click();
  const answer = `Thanks for asking ${suffix}`;
  await question.getByLabel(`Your reply to ${author}`).fill(answer);
  await question.getByRole("button", { name: "Publish reply" }).click();

  await expect(page.getByRole("status").filter({ hasText: "Reply published" })).toHaveText(
    "Reply published under the comment on the post.",
  );
  const reply = row(page, answer);
  await expect(reply).toContainText(`In reply to ${author}`);
  await expect(reply.getByText("Author", { exact: true })).toBeVisible();

  await page.goto(`/blog/${post.id}`);
  await expect(repliesTo(page, author).getByRole("listitem")).toContainText(answer);
});

test("marking a comment as spam hides its thread on the post, and the screen says why", async ({ page, request }) => {
  const { post, suffix, author } = await postWithComment(page, request);
  await postComment(request, post.id, { author: `Bo ${suffix}`, content: `Agreed ${suffix}` });
  await page.goto(`/admin/comments?status=approved&q=${suffix}`);
  const question = rowBy(page, author);
  await question.getByText(`Reply to ${author}`, { exact: true }).click();
  await question.getByLabel(`Your reply to ${author}`).fill(`An answer ${suffix}`);
  await question.getByRole("button", { name: "Publish reply" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Reply published" })).toBeVisible();

  await rowBy(page, author)
    .getByRole("button", { name: `Mark as spam the comment by ${author}` })
    .click();
  await expect(row(page, `An answer ${suffix}`)).toContainText("marked as spam, so the thread is hidden");
  await page.goto(`/blog/${post.id}`);
  await expect(page.getByText(`An answer ${suffix}`)).toHaveCount(0);
  await expect(page.getByText(`Agreed ${suffix}`)).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("answering a held comment approves it and publishes the reply under it", async ({ page, request }) => {
    const { post, suffix, author, content } = await postWithComment(page, request, true);
    await page.goto(`/admin/comments?status=pending&q=${suffix}`);
    const held = rowBy(page, author);
    await held.getByText(`Reply to ${author}`, { exact: true }).click();
    await held.getByLabel(`Your reply to ${author}`).fill(`Welcome ${suffix}`);
    await held.getByRole("button", { name: `Approve and reply` }).click();

    await expect(page).toHaveURL(new RegExp(`/admin/comments\\?status=pending&q=${suffix}$`));
    await expect(page.getByRole("status").filter({ hasText: "Reply published" })).toHaveText(
      "Reply published under the comment on the post.",
    );
    await expect(page.getByText("No pending comments match your search.")).toBeVisible();
    await page.goto(`/blog/${post.id}`);
    const thread = page.getByRole("list", { name: "Comments, newest first" }).locator(":scope > li");
    await expect(thread).toHaveCount(1);
    await expect(thread).toContainText(content);
    await expect(repliesTo(page, author).getByRole("listitem")).toContainText(`Welcome ${suffix}`);
  });

  test("an empty reply comes back open on its row with the spec's message", async ({ page, request }) => {
    const { suffix, author } = await postWithComment(page, request);
    await page.goto(`/admin/comments?status=approved&q=${suffix}`);
    const question = rowBy(page, author);
    await question.getByText(`Reply to ${author}`, { exact: true }).click();
    await question.getByRole("button", { name: "Publish reply" }).click();
    await expect(rowBy(page, author).getByText("Please enter a comment")).toBeVisible();
    await expect(rowBy(page, author).getByLabel(`Your reply to ${author}`)).toBeVisible();
  });
});
