import { expect, type Page, test } from "@playwright/test";
import { createPost, findPostById, signIn, uniqueSuffix, withDatabase } from "./admin-support";

// Bulk changes act only on posts each test made (found by a marker in their titles), so the
// shared admin server's other posts, and the specs reading them, never see them.

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

function tick(page: Page, title: string) {
  return page.getByRole("checkbox", { name: `Select ${title}`, exact: true }).check();
}

test("ticked drafts are published after one question; a draft without an excerpt is refused by name", async ({
  page,
}) => {
  const marker = uniqueSuffix();
  const ready = await createPost(page.request, { title: `Bulk ready ${marker}` });
  const bare = await createPost(page.request, { title: `Bulk bare ${marker}` });
  const live = await createPost(page.request, { title: `Bulk live ${marker}`, published: true });
  // A draft as an import may leave one: no excerpt.
  withDatabase((db) => db.prepare("update posts set excerpt = '' where id = ?").run(bare.id));

  await page.goto(`/admin/posts?q=${marker}`);
  for (const post of [ready, bare, live]) await tick(page, post.title);
  await page.getByRole("button", { name: "Publish selected", exact: true }).click();
  const question = page.getByRole("region", { name: "Publish 3 posts?" });
  await expect(question.getByRole("listitem")).toHaveText([live.title, bare.title, ready.title]);
  await question.getByRole("button", { name: "Yes, publish 3 posts" }).click();

  const outcome = page.getByRole("status").filter({ hasText: "Published" });
  await expect(outcome).toContainText(`Published “${ready.title}”.`);
  await expect(outcome).toContainText(`“${bare.title}” was not published: Excerpt is required.`);
  await expect(outcome).toContainText(`“${live.title}” is already published.`);
  await expect(page.getByRole("region", { name: /posts\?$/ })).toHaveCount(0);
  expect(findPostById(ready.id)?.published).toBe(1);
  expect(findPostById(bare.id)?.published).toBe(0);
  await expect(page.getByRole("checkbox", { name: `Select ${ready.title}` })).not.toBeChecked();
});

test("without JavaScript, ticked posts are unpublished, then deleted, each after its question", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page.request);
  const marker = uniqueSuffix();
  const first = await createPost(page.request, { title: `Plain bulk one ${marker}`, published: true });
  const second = await createPost(page.request, { title: `Plain bulk two ${marker}`, published: true });

  await page.goto(`/admin/posts?q=${marker}`);
  await tick(page, first.title);
  await tick(page, second.title);
  await page.getByRole("button", { name: "Unpublish selected" }).click();
  await expect(page).toHaveURL(/change=unpublish/);
  await page.getByRole("button", { name: "Yes, unpublish 2 posts" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Unpublished" })).toContainText("Unpublished 2 posts.");
  expect(findPostById(first.id)?.published).toBe(0);

  await tick(page, first.title);
  await tick(page, second.title);
  await page.getByRole("button", { name: "Delete selected" }).click();
  const question = page.getByRole("region", { name: "Delete 2 posts?" });
  await expect(question).toContainText("Their comments are deleted with them.");
  // Cancel changes nothing.
  await question.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("region", { name: "Delete 2 posts?" })).toHaveCount(0);
  expect(findPostById(first.id)).toBeDefined();

  await tick(page, first.title);
  await tick(page, second.title);
  await page.getByRole("button", { name: "Delete selected" }).click();
  await page.getByRole("button", { name: "Yes, delete 2 posts" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted" })).toContainText("Deleted 2 posts.");
  await expect(page.getByText("No posts found. Create your first post!")).toBeVisible();
  expect(findPostById(first.id)).toBeUndefined();
  expect(findPostById(second.id)).toBeUndefined();
  await context.close();
});

test("the Dashboard's list changes posts in bulk too, and asks to tick one first", async ({ page }) => {
  const marker = uniqueSuffix();
  const draft = await createPost(page.request, { title: `Dashboard bulk ${marker}` });
  await page.goto(`/admin?q=${marker}`);
  await page.getByRole("button", { name: "Publish selected", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Select at least one post first.");

  await tick(page, draft.title);
  await page.getByRole("button", { name: "Publish selected", exact: true }).click();
  await page.getByRole("button", { name: "Yes, publish 1 post" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Published" })).toContainText(`Published “${draft.title}”.`);
  await expect(page).toHaveURL(/\/admin\?/);
  expect(findPostById(draft.id)?.published).toBe(1);
});
