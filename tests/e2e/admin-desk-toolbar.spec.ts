import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { findPostByTitle, signIn, uniqueSuffix } from "./admin-support";

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

const preview = (page: Page) => page.getByRole("region", { name: "Preview" });
const toolbar = (page: Page) => page.getByRole("toolbar", { name: "Markdown toolbar" });

async function fillTheRest(page: Page) {
  await page.getByLabel("Excerpt").fill("A post written by the toolbar test.");
  await page.getByLabel("Category").selectOption("Design");
  await page.getByLabel("Cover image URL").fill(`${E2E_ADMIN_URL}/covers/design-1.svg`);
  await page.getByLabel("Publish this post").check();
}

test("the Enter-Enter list case renders a paragraph after the list", async ({ page }) => {
  const title = `After the list ${uniqueSuffix()}`;
  await page.goto("/admin/posts/new", { waitUntil: "networkidle" });
  await page.getByLabel("Title").fill(title);
  const content = page.getByLabel("Content");
  await content.click();
  await page.keyboard.type("- one");
  await page.keyboard.press("Enter");
  await page.keyboard.type("two");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await page.keyboard.type("A paragraph after the list.");
  await expect(content).toHaveValue("- one\n- two\n\nA paragraph after the list.");
  await expect(preview(page).locator("li")).toHaveText(["one", "two"]);
  await expect(preview(page).locator(".post-content > p")).toHaveText("A paragraph after the list.");

  await fillTheRest(page);
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  await page.goto(`/blog/${findPostByTitle(title)!.slug}`);
  const body = page.locator(".post-content");
  await expect(body.locator("li")).toHaveText(["one", "two"]);
  await expect(body.locator("li p, li", { hasText: "A paragraph after the list." })).toHaveCount(0);
  await expect(body.locator(":scope > p", { hasText: "A paragraph after the list." })).toBeVisible();
});

test("a captioned image asks for alt text and renders as figure and figcaption on the page and in the feed", async ({
  page,
}) => {
  const title = `Captioned ${uniqueSuffix()}`;
  const image = `${E2E_ADMIN_URL}/covers/design-2.svg`;
  await page.goto("/admin/posts/new", { waitUntil: "networkidle" });
  await page.getByLabel("Title").fill(title);
  const content = page.getByLabel("Content");
  await content.fill("Before the picture.");
  await content.press("End");

  await toolbar(page).getByRole("button", { name: "Image" }).click();
  const dialog = page.getByRole("dialog", { name: "Insert an image" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Image address").fill(image);
  await dialog.getByRole("button", { name: "Insert", exact: true }).click();
  await expect(dialog.getByText("Describe the image, or tick that it is decorative.")).toBeVisible();
  await expect(dialog.getByLabel("Alt text")).toBeFocused();
  await dialog.getByLabel("Alt text").fill("Boats in the harbour");
  await dialog.getByLabel("Caption (optional)").fill("The harbour at dawn & after");
  await dialog.getByLabel("Caption (optional)").press("Enter");
  await expect(dialog).toBeHidden();
  await expect(content).toHaveValue(
    `Before the picture.\n\n<figure>\n<img src="${image}" alt="Boats in the harbour">\n<figcaption>The harbour at dawn &#38; after</figcaption>\n</figure>`,
  );
  await expect(preview(page).locator("figure figcaption")).toHaveText("The harbour at dawn & after");

  await fillTheRest(page);
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  const { slug } = findPostByTitle(title)!;
  await page.goto(`/blog/${slug}`);
  const figure = page.locator(".post-content figure");
  await expect(figure.getByRole("img", { name: "Boats in the harbour" })).toBeVisible();
  await expect(figure.locator("figcaption")).toHaveText("The harbour at dawn & after");

  const feed = (await (await page.request.get("/feed.json")).json()) as {
    items: { title: string; content_html: string }[];
  };
  const item = feed.items.find((entry) => entry.title === title);
  expect(item?.content_html).toContain(`<figure>\n<img loading="lazy" src="${image}" alt="Boats in the harbour" />`);
  expect(item?.content_html).toContain("<figcaption>The harbour at dawn &amp; after</figcaption>\n</figure>");
});

test("the toolbar is one tab stop, moved through by arrow keys, with a label for every button", async ({ page }) => {
  await page.goto("/admin/posts/new", { waitUntil: "networkidle" });
  const content = page.getByLabel("Content");
  await content.fill("Plain line");
  await content.press("End");
  const buttons = toolbar(page).getByRole("button");
  const symbols = ["B", "I", "H2", "H3", "Link", "❝", "•", "1.", "`c`", "{ }", "Table", "Image"];
  const names = [
    "Bold",
    "Italic",
    "Heading 2",
    "Heading 3",
    "Link",
    "Quote",
    "Bulleted list",
    "Numbered list",
    "Inline code",
    "Code block",
    "Table",
    "Image",
  ];
  await expect(buttons.locator('[aria-hidden="true"]')).toHaveText(symbols);
  for (const [index, name] of names.entries()) await expect(buttons.nth(index)).toHaveAccessibleName(name);
  await expect(toolbar(page).locator('button[tabindex="0"]')).toHaveCount(1);

  await page.getByLabel("Format").focus();
  await page.keyboard.press("Tab");
  // The format picker, then the toolbar's one stop.
  await expect(buttons.first()).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(toolbar(page).getByRole("button", { name: "Heading 2" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(content).toHaveValue("## Plain line");
  await toolbar(page).getByRole("button", { name: "Heading 2" }).focus();
  await page.keyboard.press("End");
  await expect(toolbar(page).getByRole("button", { name: "Image" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(toolbar(page).getByRole("button", { name: "Bold" })).toBeFocused();

  await content.fill("");
  await toolbar(page).getByRole("button", { name: "Numbered list" }).click();
  await page.keyboard.type("first");
  await toolbar(page).getByRole("button", { name: "Code block" }).click();
  await page.keyboard.type("let x = 1;");
  await content.press("ControlOrMeta+End");
  await toolbar(page).getByRole("button", { name: "Table" }).click();
  await expect(content).toHaveValue(
    "1. first\n\n```\nlet x = 1;\n```\n\n| Heading | Heading |\n| --- | --- |\n| Cell | Cell |",
  );
  await expect(preview(page).locator("ol li")).toHaveText("first");
  await expect(preview(page).locator("pre")).toContainText("let x = 1;");
  await expect(preview(page).locator("table th")).toHaveText(["Heading", "Heading"]);
});

test("the image dialog uploads a file for the address, and a decorative image gets an empty alt", async ({ page }) => {
  const colour = `#${uniqueSuffix().slice(0, 6)}`;
  const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: colour } })
    .png()
    .toBuffer();
  await page.goto("/admin/posts/new", { waitUntil: "networkidle" });
  await toolbar(page).getByRole("button", { name: "Image" }).click();
  const dialog = page.getByRole("dialog", { name: "Insert an image" });
  await dialog.getByLabel("Or upload an image").setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: png });
  await expect(dialog.getByLabel("Image address")).toHaveValue(/^\/media\/[0-9a-f]{64}\/40\.png$/);
  const address = await dialog.getByLabel("Image address").inputValue();
  await dialog.getByLabel("Decorative image: it needs no description").check();
  await dialog.getByRole("button", { name: "Insert", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Content")).toHaveValue(`![](${address})`);
});
