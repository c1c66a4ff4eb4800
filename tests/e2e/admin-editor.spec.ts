import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import {
  createPost,
  findPostBody,
  findPostByTitle,
  signIn,
  signInThroughForm,
  uniqueSuffix,
  updatePost,
} from "./admin-support";

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

const preview = (page: Page) => page.getByRole("region", { name: "Preview" });

test("Markdown typed in the editor shows in the live preview, with the toolbar, shortcuts and list continuation", async ({
  page,
}) => {
  await page.goto("/admin/posts/new");
  await expect(page.getByLabel("Format")).toHaveValue("markdown");
  const content = page.getByLabel("Content");
  await content.click();
  await content.pressSequentially("## A heading\n\nSome words to make ");
  await page.keyboard.press("ControlOrMeta+b");
  await page.keyboard.type("strong");
  await page.keyboard.press("End");
  await page.keyboard.type("\n\n- first");
  await page.keyboard.press("Enter");
  await page.keyboard.type("second");
  await expect(content).toHaveValue("## A heading\n\nSome words to make **strong**\n\n- first\n- second");

  await expect(preview(page).getByRole("heading", { level: 2, name: "A heading" })).toBeVisible();
  await expect(preview(page).locator("strong")).toHaveText("strong");
  await expect(preview(page).getByRole("listitem")).toHaveText(["first", "second"]);
  await expect(page.getByText("9 words", { exact: true })).toBeVisible();

  await page.getByRole("toolbar", { name: "Markdown toolbar" }).getByRole("button", { name: "Quote" }).click();
  await expect(preview(page).locator("blockquote")).toHaveCount(1);
});

test("pasting HTML into a Markdown post turns it into Markdown", async ({ page }) => {
  await page.goto("/admin/posts/new");
  const content = page.getByLabel("Content");
  await content.focus();
  await content.evaluate((textarea) => {
    const data = new DataTransfer();
    data.setData("text/html", "<h2>Pasted</h2><p>A <strong>bold</strong> <a href='https://example.com/'>link</a></p>");
    data.setData("text/plain", "Pasted A bold link");
    textarea.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(content).toHaveValue("## Pasted\n\nA **bold** [link](https://example.com/)");
});

test("autosave keeps the draft without publishing it, and a closed tab's changes can be recovered", async ({
  page,
  context,
}) => {
  const post = await createPost(page.request, { title: `Autosaved ${uniqueSuffix()}` });
  await page.goto(`/admin/posts/edit/${post.id}`);
  const status = page.locator("[data-autosave]");
  await page.getByLabel("Content").fill("Words that were never saved by hand.");
  await expect(status).toHaveText("Saved");
  expect(findPostBody(post.id)).toMatchObject({ content: "<p>Written by an end-to-end test.</p>", published: 0 });
  await page.close({ runBeforeUnload: false });

  const reopened = await context.newPage();
  await reopened.goto(`/admin/posts/edit/${post.id}`);
  await expect(reopened.getByLabel("Content")).toHaveValue("<p>Written by an end-to-end test.</p>");
  await reopened.getByRole("link", { name: "Recover unsaved changes" }).click();
  await expect(reopened.getByLabel("Content")).toHaveValue("Words that were never saved by hand.");
  await reopened.getByRole("button", { name: "Save Changes" }).click();
  await expect(reopened.getByRole("status").filter({ hasText: "Post saved." })).toBeVisible();
  expect(findPostBody(post.id)).toMatchObject({
    content: "Words that were never saved by hand.",
    content_html: "<p>Words that were never saved by hand.</p>\n",
  });
  await reopened.goto(`/admin/posts/edit/${post.id}`);
  await expect(reopened.getByRole("link", { name: "Recover unsaved changes" })).toHaveCount(0);
});

test("a post not created yet is kept in the browser: a sign-in that ran out or a reload loses nothing", async ({
  page,
  context,
}) => {
  const title = `Kept in the browser ${uniqueSuffix()}`;
  await page.goto("/admin/posts/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("A paragraph written while the sign-in ran out.");
  await page.getByLabel("Excerpt").fill("Kept by the browser.");
  await page.getByLabel("Category").selectOption("Design");
  await page.getByLabel("Cover image URL").fill(`${E2E_ADMIN_URL}/covers/design-2.svg`);

  await context.clearCookies();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(/\/login\?/);
  expect(findPostByTitle(title)).toBeUndefined();
  await signInThroughForm(page);
  await expect(page).toHaveURL(/\/admin\/posts\/new$/);
  const offer = page.getByRole("alert").filter({ hasText: "This browser kept a post you had not created yet" });
  await expect(offer).toContainText(title);
  await expect(page.getByLabel("Title")).toHaveValue("");

  await offer.getByRole("button", { name: "Restore it" }).click();
  await expect(offer).toHaveCount(0);
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(page.getByLabel("Content")).toHaveValue("A paragraph written while the sign-in ran out.");
  await expect(page.getByLabel("Category")).toHaveValue("Design");
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Post created." })).toBeVisible();
  expect(findPostByTitle(title)).toMatchObject({ category: "Design", published: 0 });
  await page.goto("/admin/posts/new");
  await expect(page.getByLabel("Title")).toBeVisible();
  await expect(page.getByText("This browser kept a post")).toHaveCount(0);

  // Typing alone is kept too, a moment after it stops; a reload offers it back, and it can be thrown away.
  const second = `Reloaded ${uniqueSuffix()}`;
  await page.getByLabel("Title").fill(second);
  await expect
    .poll(() => page.evaluate(() => Object.values(sessionStorage).join("")), { timeout: 5_000 })
    .toContain(second);
  page.on("dialog", (dialog) => void dialog.accept());
  await page.reload();
  await expect(offer).toContainText(second);
  await offer.getByRole("button", { name: "Discard it" }).click();
  await expect(offer).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("Title")).toBeVisible();
  await expect(page.getByText("This browser kept a post")).toHaveCount(0);
});

test("autosave says when it cannot save and retries", async ({ page }) => {
  const post = await createPost(page.request, { title: `Offline ${uniqueSuffix()}` });
  await page.goto(`/admin/posts/edit/${post.id}`);
  let refuse = true;
  await page.route(`**/admin/posts/${post.id}/autosave`, (route) =>
    refuse ? route.fulfill({ status: 503, body: "{}" }) : route.continue(),
  );
  await page.getByLabel("Content").fill("Typed while the server was away.");
  await expect(page.locator("[data-autosave]")).toHaveText("Not saved: retrying");
  refuse = false;
  await expect(page.locator("[data-autosave]")).toHaveText("Saved", { timeout: 15_000 });
});

test("a revision can be compared with the current text and restored, as a new revision", async ({ page }) => {
  const title = `Revised ${uniqueSuffix()}`;
  const post = await createPost(page.request, { title, content: "The quick brown fox" });
  // Saved through the action, so no autosave from typing adds a revision of its own.
  await updatePost(page.request, post.id, { title, content: "The slow brown fox" });

  await page.goto(`/admin/posts/edit/${post.id}`);
  const revisions = page.getByRole("list", { name: "Revisions" });
  await expect(revisions.getByRole("listitem")).toHaveCount(2);
  await revisions.getByRole("link", { name: "Revision 1" }).click();
  const diff = page.getByRole("group", { name: "Content differences" });
  await expect(diff.locator("ins")).toHaveText("quick");
  await expect(diff.locator("del")).toHaveText("slow");
  await page.getByRole("button", { name: "Restore this revision" }).click();

  await expect(page).toHaveURL(new RegExp(`/admin/posts/edit/${post.id}$`));
  await expect(page.getByRole("status").filter({ hasText: "Revision restored." })).toBeVisible();
  await expect(page.getByLabel("Content")).toHaveValue("The quick brown fox");
  await expect(revisions.getByRole("listitem")).toHaveCount(3);
  await expect(revisions.getByRole("listitem").first()).toContainText("Restored by admin@example.com");
  expect(findPostBody(post.id)?.content).toBe("The quick brown fox");
});

test("a scheduled post is listed as Scheduled and appears on the blog by itself when its time comes", async ({
  page,
}) => {
  const title = `Scheduled ${uniqueSuffix()}`;
  const post = await createPost(page.request, { title, published: true });
  // A few seconds ahead, in UTC (as a browser without JavaScript sends it).
  const at = new Date(Date.now() + 5_000).toISOString().slice(0, 19);
  await updatePost(page.request, post.id, {
    title,
    content: "Soon.",
    published: true,
    publishAt: at,
    publishAtOffset: "0",
  });

  expect(findPostBody(post.id)).toMatchObject({ published: 1, publish_at: `${at}.000Z` });

  await page.goto(`/admin/posts?q=${encodeURIComponent(title)}`);
  const status = page.getByRole("row").filter({ hasText: title }).getByRole("cell").nth(4);
  // The list loads well within the five seconds; on a machine slower than that the post is public already.
  if ((await status.textContent())?.startsWith("Scheduled")) {
    await expect(status).toContainText(/Scheduled\s*for \w{3} \d+, \d{4}/);
    expect((await page.request.get(`/blog/${post.id}`)).status()).toBe(404);
  }
  // A visitor's list is served from the page cache: the cached copy must end when the post goes live.
  const visitor = await playwrightRequest.newContext({ baseURL: E2E_ADMIN_URL });
  await expect
    .poll(async () => (await visitor.get("/blog")).text(), { timeout: 20_000, intervals: [1_000] })
    .toContain(title);
  await visitor.dispose();
  expect((await page.request.get(`/blog/${post.id}`)).status()).toBe(200);
});

test("a preview link shows the draft with a banner and noindex, until it is revoked", async ({ page, browser }) => {
  const title = `Previewed ${uniqueSuffix()}`;
  const post = await createPost(page.request, { title });
  await page.goto(`/admin/posts/edit/${post.id}`);
  await page.getByRole("button", { name: "Share a preview" }).click();
  const link = await page.getByLabel(/Preview link/).inputValue();
  expect(link).toMatch(new RegExp(`^${E2E_ADMIN_URL}/preview/[A-Za-z0-9_-]{43}$`));

  // Someone without an account opens it.
  const visitor = await browser.newContext();
  const reader = await visitor.newPage();
  const response = await reader.goto(link);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-robots-tag"]).toBe("noindex");
  await expect(reader.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(reader.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(reader.getByRole("note")).toContainText("Preview: this post is not published yet");

  await page.getByRole("button", { name: "Revoke preview links" }).click();
  await expect(page.getByRole("button", { name: "Revoke preview links" })).toHaveCount(0);
  const revoked = await reader.goto(link);
  expect(revoked?.status()).toBe(404);
  await expect(reader.getByText("This preview link has ended")).toBeVisible();
  await visitor.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the editor is a plain textarea that still saves Markdown", async ({ page }) => {
    const post = await createPost(page.request, { title: `Script-free Markdown ${uniqueSuffix()}` });
    await page.goto(`/admin/posts/edit/${post.id}`);
    await expect(page.getByRole("toolbar")).toHaveCount(0);
    await expect(page.getByText("Times are in UTC.")).toBeVisible();
    await page.getByLabel("Format").selectOption("markdown");
    await page.getByLabel("Content").fill("# Plain\n\n- [x] still works");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Post saved." })).toBeVisible();
    expect(findPostBody(post.id)).toMatchObject({ format: "markdown", content: "# Plain\n\n- [x] still works" });
    expect(findPostBody(post.id)?.content_html).toContain('<h1 id="h-plain">Plain</h1>');
  });
});

for (const theme of ["light", "dark"] as const) {
  test(`the editor passes axe in the ${theme} theme`, async ({ page }) => {
    await page.addInitScript((value) => localStorage.setItem("theme", value), theme);
    const post = await createPost(page.request, { title: `Accessible ${uniqueSuffix()}` });
    await page.goto(`/admin/posts/edit/${post.id}`);
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await page
      .getByLabel("Content")
      .fill("## Code\n\n```ts\nconst answer: number = 42;\n```\n\n- [x] done\n\nNote.[^1]\n\n[^1]: Source.");
    await expect(preview(page).locator("pre.shiki")).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      ),
    ).toEqual([]);
  });
}
