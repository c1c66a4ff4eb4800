import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { EVIL_ORIGIN, findPostByTitle, SAME_ORIGIN, signIn, submitAndWait, uniqueSuffix } from "./admin-support";

/** A small photo made for the test; the colour keeps each test's upload its own. */
async function photo(width: number, height: number): Promise<Buffer> {
  const colour = `#${uniqueSuffix().slice(0, 6)}`;
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

async function fillPost(page: Page, title: string) {
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Excerpt").fill("Pictures from the harbour.");
  await page.getByLabel("Author").fill("Test Author");
  await page.getByLabel("Category").selectOption("Design");
}

/** What a paste of a copied image delivers to the textarea. */
async function pasteImage(page: Page, selector: string, bytes: Buffer, name: string, type: string) {
  await page.locator(selector).evaluate(
    (textarea, file) => {
      const data = new DataTransfer();
      data.items.add(
        new File([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], file.name, { type: file.type }),
      );
      textarea.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64: bytes.toString("base64"), name, type },
  );
}

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

test("an image pasted into the body is published as a responsive picture", async ({ page }) => {
  const title = `Harbour photos ${uniqueSuffix()}`;
  await page.goto("/admin/posts/new");
  await fillPost(page, title);
  await page.getByLabel("Cover image URL").fill(`${E2E_ADMIN_URL}/covers/design-1.svg`);
  // An HTML post gets an <img>; a Markdown one (the default) would get ![alt](url).
  await page.getByLabel("Format").selectOption("html");
  const content = page.getByLabel("Content");
  await content.fill("<p>Before the picture.</p>");
  await content.press("End");
  await pasteImage(page, "#post-content", await photo(1200, 600), "harbour-at-dawn.png", "image/png");
  await expect(content).toHaveValue(
    /^<p>Before the picture\.<\/p>\n\n<img src="\/media\/[0-9a-f]{64}\/1200\.png" alt="harbour at dawn">$/,
  );

  await page.getByLabel("Publish this post").check();
  await submitAndWait(page, "Create Post");
  await expect(page).toHaveURL(/\/admin\/posts$/);

  await page.goto(`/blog/${findPostByTitle(title)!.id}`);
  const picture = page.locator(".post-content picture");
  await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute(
    "srcset",
    /480\.avif 480w, .*1200\.avif 1200w/,
  );
  const image = picture.locator("img");
  await expect(image).toHaveAttribute("width", "1200");
  await expect(image).toHaveAttribute("height", "600");
  await expect(image).toHaveAttribute("alt", "harbour at dawn");
  await image.scrollIntoViewIfNeeded();
  // Chromium reads AVIF: it picks that source, at a width the layout asked for.
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.currentSrc))
    .toMatch(/\/(480|960|1200)\.avif$/);
  expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
});

test("a cover image can be uploaded beside its URL field", async ({ page }) => {
  const title = `Uploaded cover ${uniqueSuffix()}`;
  await page.goto("/admin/posts/new");
  await fillPost(page, title);
  await page.getByLabel("Content").fill("<p>A post with an uploaded cover.</p>");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload cover image" }).click();
  await (await chooser).setFiles({ name: "cover.png", mimeType: "image/png", buffer: await photo(1000, 525) });
  const coverField = page.getByLabel("Cover image URL");
  await expect(coverField).toHaveValue(/^\/media\/[0-9a-f]{64}\/1000\.png$/);
  await expect(page.getByRole("img", { name: "Cover image preview" })).toBeVisible();

  await page.getByLabel("Publish this post").check();
  await submitAndWait(page, "Create Post");
  await expect(page).toHaveURL(/\/admin\/posts$/);

  await page.goto(`/blog/${findPostByTitle(title)!.id}`);
  const cover = page.locator("article > picture img").first();
  await expect(cover).toHaveAttribute("fetchpriority", "high");
  await expect(cover).toHaveAttribute("srcset", /480\.png 480w, .*1000\.png 1000w/);
  expect(await cover.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);

  await page.goto("/admin/media");
  const item = page.getByRole("listitem").filter({ hasText: "cover.png" });
  await expect(item).toContainText("1000 × 525");
  await expect(item.getByRole("link", { name: title })).toBeVisible();
  await item.getByRole("button", { name: "Delete cover.png" }).click();
  await expect(item.getByRole("alert")).toContainText(title);
});

test("an SVG carrying a script is refused with the reason, and nothing is inserted", async ({ page }) => {
  await page.goto("/admin/posts/new");
  const content = page.getByLabel("Content");
  await content.fill("<p>Only text.</p>");
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Insert image" }).click();
  await (await chooser).setFiles({ name: "logo.png", mimeType: "image/png", buffer: svg });
  await expect(page.getByRole("alert")).toHaveText("Only JPEG, PNG, WebP, AVIF and GIF images can be uploaded.");
  await expect(content).toHaveValue("<p>Only text.</p>");
});

test("a forged upload is refused: without a session, and from another site", async ({ page, playwright }) => {
  const file = { name: "forged.png", mimeType: "image/png", buffer: await photo(32, 32) };
  const stranger = await playwright.request.newContext({ baseURL: E2E_ADMIN_URL });
  const anonymous = await stranger.post("/admin/media", { multipart: { file }, headers: SAME_ORIGIN });
  expect(anonymous.status()).toBe(401);
  await stranger.dispose();

  const crossSite = await page.request.post("/admin/media", { multipart: { file }, headers: EVIL_ORIGIN });
  expect(crossSite.status()).toBe(403);
});

test("an image from the media library is inserted at the cursor", async ({ page }) => {
  const upload = await page.request.post("/admin/media", {
    multipart: { file: { name: "library-pick.png", mimeType: "image/png", buffer: await photo(300, 200) } },
    headers: SAME_ORIGIN,
  });
  expect(upload.status()).toBe(201);
  const { media } = (await upload.json()) as { media: { url: string } };

  // The format is React state: a choice made before the editor hydrates would be lost.
  await page.goto("/admin/posts/new", { waitUntil: "networkidle" });
  await page.getByLabel("Format").selectOption("html");
  await page.getByLabel("Content").fill("<p>Text.</p>");
  await page.getByRole("button", { name: "Choose from media library" }).click();
  await page.getByRole("button", { name: "Insert library-pick.png" }).first().click();
  await expect(page.getByLabel("Content")).toHaveValue(`<p>Text.</p>\n\n<img src="${media.url}" alt="library pick">`);
});
