import { randomUUID } from "node:crypto";
import { slugFromTitle } from "../../server/kernel/slugs.ts";
import type { Page } from "@playwright/test";
import { draftPosts, expect, sameOrigin, test } from "./site-fixtures.ts";

// Each test that saves a comment owns its post, so parallel tests never change what another one counts.
const JS_COMMENT_POST = "Notes From Five Years of Freelancing";
const MARKUP_COMMENT_POST = "Running a Remote Team Across Time Zones";
const NO_JS_COMMENT_POST = "Writing Headlines Readers Click (and Don't Regret Clicking)";
const INVALID_COMMENT_POST = "How to Set Up Automatic HTTPS with Caddy";

const commentsHeading = (page: Page) => page.getByRole("heading", { level: 2, name: /^\d+ Comments?$/ });
const commentItems = (page: Page) => page.getByRole("list", { name: "Comments, newest first" }).getByRole("listitem");
const countOf = async (page: Page) => Number((await commentsHeading(page).textContent())!.split(" ")[0]);
const nameField = (page: Page) => page.getByLabel("Name", { exact: true });
const commentField = (page: Page) => page.getByLabel("Comment", { exact: true });
const submit = (page: Page) => page.getByRole("button", { name: "Post Comment" });

test.describe("with JavaScript", () => {
  test("a comment is posted, trimmed and newest first, and the button says so while it is on its way", async ({
    page,
    site,
  }) => {
    const postUrl = `/blog/${site.postId(JS_COMMENT_POST)}`;
    await page.goto(postUrl);
    const before = await countOf(page);
    const text = `Thanks, this helped me price my first contract. ${randomUUID()}`;

    // The page is replaced as soon as the answer comes, so what the button said is kept in the tab's session storage.
    await submit(page).evaluate((button: HTMLButtonElement) => {
      new MutationObserver(() => {
        sessionStorage.setItem(
          "button while posting",
          `${button.textContent} ${button.disabled ? "disabled" : "enabled"}`,
        );
      }).observe(button, { attributes: true, childList: true, characterData: true, subtree: true });
    });
    await nameField(page).fill("  Grace Hopper  ");
    await commentField(page).fill(`\n  ${text}  \n`);
    await submit(page).click();

    const saved = commentItems(page).filter({ hasText: text });
    await expect(saved).toHaveAttribute("id", /^comment-/);
    await expect(saved.locator("p").first()).toHaveJSProperty("textContent", "Grace Hopper");
    await expect(saved.locator("p").last()).toHaveJSProperty("textContent", text);
    await expect(commentItems(page).first()).toHaveText(new RegExp(text));
    await expect(commentsHeading(page)).toHaveText(before + 1 === 1 ? "1 Comment" : `${before + 1} Comments`);
    await expect(nameField(page)).toHaveValue("");
    await expect(commentField(page)).toHaveValue("");
    await expect(submit(page)).toBeEnabled();
    expect(await page.evaluate(() => sessionStorage.getItem("button while posting"))).toBe("Posting… disabled");

    await page.reload();
    await expect(commentItems(page).filter({ hasText: text })).toHaveCount(1);
  });

  test("comment text is shown as text, never as markup", async ({ page, site }) => {
    await page.goto(`/blog/${site.postId(MARKUP_COMMENT_POST)}`);
    let dialogs = 0;
    page.on("dialog", async (dialog) => {
      dialogs += 1;
      await dialog.dismiss();
    });
    const text = `<img src=x onerror="alert(1)"><script>alert(2)</script> ${randomUUID()}`;
    await nameField(page).fill("<b>Mallory</b>");
    await commentField(page).fill(text);
    await submit(page).click();
    const saved = commentItems(page).filter({ hasText: text });
    await expect(saved).toBeVisible();
    await expect(saved).toContainText("<b>Mallory</b>");
    await expect(saved.locator("img, script, b")).toHaveCount(0);
    expect(dialogs).toBe(0);
  });

  test("a refused comment comes back with the spec's messages, what was typed and focus on the first mistake", async ({
    page,
    site,
  }) => {
    await page.goto(`/blog/${site.postId(INVALID_COMMENT_POST)}`);
    const before = await countOf(page);

    await nameField(page).fill("   ");
    await submit(page).click();
    await expect(page.getByText("Please enter your name")).toBeVisible();
    await expect(page.getByText("Please enter a comment")).toBeVisible();
    await expect(nameField(page)).toBeFocused();
    await expect(nameField(page)).toHaveAttribute("aria-invalid", "true");

    await nameField(page).fill("Ann");
    await commentField(page).fill("c".repeat(5001));
    await submit(page).click();
    await expect(page.getByText("Comment must be at most 5,000 characters")).toBeVisible();
    await expect(page.getByText("Please enter your name")).toHaveCount(0);
    await expect(commentField(page)).toBeFocused();
    await expect(nameField(page)).toHaveValue("Ann");
    await expect(commentField(page)).toHaveValue("c".repeat(5001));

    await nameField(page).fill("n".repeat(81));
    await submit(page).click();
    await expect(page.getByText("Name must be at most 80 characters")).toBeVisible();
    await expect(page.getByText("Comment must be at most 5,000 characters")).toBeVisible();
    expect(await countOf(page)).toBe(before);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a comment is posted, and the page comes back showing it", async ({ page, site }) => {
    const postUrl = `/blog/${site.postId(NO_JS_COMMENT_POST)}`;
    await page.goto(postUrl);
    const text = `Read with scripts off and it still works. ${randomUUID()}`;
    await nameField(page).fill("Lynx User");
    await commentField(page).fill(text);
    const [postResponse] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      submit(page).click(),
    ]);
    expect(postResponse.status()).toBe(303);
    // The id redirected to the slug, where the page comes back.
    await expect(page).toHaveURL(new RegExp(`/blog/${slugFromTitle(NO_JS_COMMENT_POST)}#comment-[\\w-]+$`));
    await expect(commentItems(page).first()).toContainText(text);
    await expect(commentItems(page).first()).toContainText("Lynx User");
  });

  test("mistakes come back with status 400, the messages and what was typed", async ({ page, site }) => {
    await page.goto(`/blog/${site.postId(INVALID_COMMENT_POST)}`);
    await commentField(page).fill("A thought worth keeping");
    const [emptyName] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      submit(page).click(),
    ]);
    expect(emptyName.status()).toBe(400);
    await expect(page.getByText("Please enter your name")).toBeVisible();
    await expect(commentField(page)).toHaveValue("A thought worth keeping");

    await nameField(page).fill("Ann");
    await commentField(page).fill("c".repeat(5001));
    const [tooLong] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      submit(page).click(),
    ]);
    expect(tooLong.status()).toBe(400);
    await expect(page.getByText("Comment must be at most 5,000 characters")).toBeVisible();
    await expect(nameField(page)).toHaveValue("Ann");
    await expect(commentField(page)).toHaveValue("c".repeat(5001));
  });
});

test.describe("posting straight to the action", () => {
  const post = (request: import("@playwright/test").APIRequestContext, path: string, form: Record<string, string>) =>
    request.post(path, { form, headers: sameOrigin, maxRedirects: 0 });

  test("blank fields are a 400 naming each one", async ({ request, site }) => {
    const response = await post(request, `/blog/${site.postId(INVALID_COMMENT_POST)}`, { author: " ", content: " " });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).toContain("Please enter your name");
    expect(html).toContain("Please enter a comment");
  });

  test("an oversized comment is a 400, an oversized request a 413, never a 500", async ({ request, site }) => {
    const path = `/blog/${site.postId(INVALID_COMMENT_POST)}`;
    const tooLong = await post(request, path, { author: "A", content: "x".repeat(5001) });
    expect(tooLong.status()).toBe(400);
    expect(await tooLong.text()).toContain("Comment must be at most 5,000 characters");
    const huge = await post(request, path, { author: "A", content: "x".repeat(1_000_000) });
    expect(huge.status()).toBe(413);
    expect(await huge.text()).toContain("Your comment is too long");
  });

  test("a draft or a missing post takes no comments", async ({ request, site }) => {
    const draft = await post(request, `/blog/${site.postId(draftPosts[0]!.title)}`, { author: "A", content: "B" });
    expect(draft.status()).toBe(404);
    expect(await draft.text()).toContain("This post is not available");
    const missing = await post(request, "/blog/NoSuchPost1234", { author: "A", content: "B" });
    expect(missing.status()).toBe(404);
    expect(await missing.text()).toContain("Post not found");
  });
});
