import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { createEditor } from "./admin-accounts-support";
import { findPostByTitle, signIn, uniqueSuffix } from "./admin-support";

// Embeds (issue 36): a URL pasted alone on a line shows its card in the visual view, the
// Markdown keeps the bare URL, and the published page shows the card with no application script.
// A video URL needs no fetch, so the test stays off the network.

// Each test writes as an editor of its own: the view picked is kept on the account, and the
// owner's must stay Markdown for the specs running beside this one.
test.beforeEach(async ({ page }) => {
  await signIn(page.request, await createEditor(page.request, "Embedding writer"));
});

const VIDEO = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const PLAYER = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ";
const visual = (page: Page) => page.getByRole("textbox", { name: "Content" });

test("a URL pasted alone on a line shows its card, and the published page shows it without script", async ({
  page,
}) => {
  const title = `Embed ${uniqueSuffix()}`;
  await page.goto("/admin/posts/new", { waitUntil: "networkidle" });
  await page.getByRole("group", { name: "Writing view" }).getByRole("button", { name: "Visual" }).click();
  await page.getByLabel("Title").fill(title);
  await visual(page).click();
  await page.keyboard.type("Watch this:");
  await page.keyboard.press("Enter");
  await visual(page).evaluate((editor, url) => {
    const data = new DataTransfer();
    data.setData("text/plain", url);
    editor.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, VIDEO);

  await expect(visual(page).getByRole("link", { name: "Play the video on YouTube" })).toHaveAttribute("href", PLAYER);
  await expect(page.locator("textarea[name=content]")).toHaveValue(`Watch this:\n\n${VIDEO}`);

  await page.getByLabel("Excerpt").fill("A video.");
  await page.getByLabel("Category").selectOption("Design");
  await page.getByLabel("Cover image URL").fill(`${E2E_ADMIN_URL}/covers/design-1.svg`);
  await page.getByLabel("Publish this post").check();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/, { timeout: 20_000 });
  await page.goto(`/blog/${findPostByTitle(title)!.slug}`);
  const body = page.locator(".post-content");
  await expect(body.getByRole("link", { name: "Play the video on YouTube" })).toHaveAttribute("href", PLAYER);
  await expect(body.locator("iframe")).toHaveCount(0);
  await expect(page.locator('script[type="module"], script[src], link[rel="modulepreload"]')).toHaveCount(0);
});
