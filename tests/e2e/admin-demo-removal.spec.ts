import Database from "better-sqlite3";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type OwnBlog, signInToOwnBlog, startOwnBlog, stopOwnBlog } from "./own-blog-support.ts";

// Removing the demo content changes what every other spec reads, so this spec runs its own blog
// (with the demo loaded at its first start); its tests share it, one after the other.
test.describe.configure({ mode: "serial" });

let blog: OwnBlog | undefined;
test.beforeAll(async () => {
  blog = await startOwnBlog("demo-removal");
});
test.afterAll(async () => {
  await stopOwnBlog(blog);
});

function query<T>(sql: string, ...values: string[]): T[] {
  const db = new Database(path.join(blog!.directory, "blog.sqlite"), { timeout: 5000 });
  try {
    return db.prepare(sql).all(...values) as T[];
  } finally {
    db.close();
  }
}

test("the question can be cancelled, and nothing is removed", async ({ page }) => {
  await signInToOwnBlog(page, blog!);
  await page.goto(`${blog!.url}/admin/tools`);
  const section = page.getByRole("region", { name: "Demo content" });
  await expect(section).toContainText("The blog still shows the 20 demo posts");
  await section.getByRole("link", { name: "Remove the demo content" }).click();
  await expect(section).toContainText(/Remove the 20 demo posts and \d+ comments\? This cannot be undone\./);
  await section.getByRole("link", { name: "Cancel" }).click();
  await expect(section.getByRole("button", { name: "Yes, remove the demo content" })).toHaveCount(0);
  expect(query("select id from posts")).toHaveLength(20);
});

test("without JavaScript, the owner removes the demo and keeps their own post and the demo post they edited", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInToOwnBlog(page, blog!);

  // The writer's own post, through the editor's plain form.
  await page.goto(`${blog!.url}/admin/posts/new`);
  await page.getByLabel("Title").fill("My own first post");
  await page.getByLabel("Content").fill("Written by me.");
  await page.getByLabel("Excerpt").fill("Mine.");
  await page.getByLabel("Cover image URL").fill(`${blog!.url}/covers/design-1.svg`);
  await page.getByLabel("Category").selectOption("Design");
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Post created." })).toBeVisible();

  // One demo post edited by the writer.
  const [demo] = query<{ id: string; title: string }>("select id, title from posts where published = 1 limit 1");
  await page.goto(`${blog!.url}/admin/posts/edit/${demo!.id}`);
  await page.getByLabel("Excerpt").fill("My own summary of it.");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Post saved." })).toBeVisible();

  await page.goto(`${blog!.url}/admin/tools`);
  await page.getByRole("link", { name: "Remove the demo content" }).click();
  await page.getByRole("button", { name: "Yes, remove the demo content" }).click();
  const result = page.getByRole("region", { name: "Demo content" }).getByRole("status");
  await expect(result).toContainText(/Removed 19 demo posts and \d+ comments\./);
  await expect(result).toContainText(`Kept 1 demo post that changed since the demo wrote it: “${demo!.title}”.`);

  const titles = query<{ title: string }>("select title from posts order by title").map((row) => row.title);
  expect(titles.sort()).toEqual(["My own first post", demo!.title].sort());
  await page.goto(`${blog!.url}/admin/tools`);
  await expect(page.getByRole("region", { name: "Demo content" })).toHaveCount(0);
  await context.close();
});
