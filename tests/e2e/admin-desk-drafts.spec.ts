import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { findPostById, signIn, uniqueSuffix } from "./admin-support";

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

const EDIT_POST = /\/admin\/posts\/edit\/([\w-]+)$/;
const EDIT_PAGE = /\/admin\/pages\/edit\/([\w-]+)$/;

function postRow(page: Page, title: string) {
  return page.getByRole("row").filter({ has: page.getByRole("cell", { name: title, exact: true }) });
}

/** A post with only a title, saved as a draft, survives a reload and is listed as a draft. */
async function saveTitleOnlyPost(page: Page, title: string): Promise<string> {
  await page.goto("/admin/posts/new");
  await page.getByLabel("Title").fill(title);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(EDIT_POST);
  await expect(page.getByRole("status").filter({ hasText: "Draft saved." })).toBeVisible();
  const id = EDIT_POST.exec(page.url())![1]!;

  await page.reload();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(page.getByLabel("Category")).toHaveValue("");
  expect(findPostById(id)).toMatchObject({ title, category: "", published: 0 });

  await page.goto(`/admin/posts?${new URLSearchParams({ q: title })}`);
  await expect(postRow(page, title)).toContainText("Draft");
  return id;
}

async function saveTitleOnlyPage(page: Page, title: string) {
  await page.goto("/admin/pages/new");
  await page.getByLabel("Title").fill(title);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(EDIT_PAGE);
  await expect(page.getByRole("status").filter({ hasText: "Draft saved." })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(page.getByLabel("Content")).toHaveValue("");
  await page.goto("/admin/pages");
  await expect(page.getByRole("row").filter({ hasText: title })).toContainText("Draft");
}

test("a post draft with only a title survives a reload and is listed as Draft", async ({ page }) => {
  await saveTitleOnlyPost(page, `Only a title ${uniqueSuffix()}`);
});

test("a page draft with only a title survives a reload and is listed as Draft", async ({ page }) => {
  await saveTitleOnlyPage(page, `Page idea ${uniqueSuffix()}`);
});

test("Create Post keeps the spec's checks, and the required fields are marked before submitting", async ({ page }) => {
  await page.goto("/admin/posts/new");
  // The mark is seen, not read: the accessible name stays the label, and "required" comes from aria-required.
  for (const label of ["Title", "Content", "Excerpt", "Author", "Category", "Cover image URL"]) {
    const role = label === "Category" ? "combobox" : "textbox";
    const field = page.getByRole(role, { name: label, exact: true });
    await expect(page.locator("label", { hasText: label }).first()).toContainText("*");
    await expect(field).toHaveAttribute("aria-required", "true");
    // The browser's own check would hide the spec's messages.
    await expect(field).not.toHaveAttribute("required");
  }
  await expect(page.getByLabel("Tags")).not.toHaveAttribute("aria-required");
  await page.getByLabel("Title").fill(`Not enough ${uniqueSuffix()}`);
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByText("Excerpt is required")).toBeVisible();
  await expect(page.getByText("Category is required")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/posts\/new$/);
});

test("View post on a draft shows its preview", async ({ page, context }) => {
  const title = `Preview from the editor ${uniqueSuffix()}`;
  const id = await saveTitleOnlyPost(page, title);
  await page.goto(`/admin/posts/edit/${id}`);
  await page.getByLabel("Content").fill("Seen **before** anyone else.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Draft saved." })).toBeVisible();

  const opened = context.waitForEvent("page");
  await page.getByRole("status").getByRole("button", { name: "View post" }).click();
  const preview = await opened;
  await expect(preview).toHaveURL(/\/preview\/[\w-]+$/);
  await expect(preview.getByText("Preview: this post is not published yet.")).toBeVisible();
  await expect(preview.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(preview.locator(".post-content strong")).toHaveText("before");
  await preview.close();
});

test("Create and keep editing saves under the spec's rules and stays in the editor with View post", async ({
  page,
}) => {
  const title = `Kept open ${uniqueSuffix()}`;
  await page.goto("/admin/posts/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("A body.");
  await page.getByLabel("Excerpt").fill("Short.");
  await page.getByLabel("Category").selectOption("Design");
  await page.getByLabel("Cover image URL").fill(`${E2E_ADMIN_URL}/covers/design-1.svg`);
  await page.getByLabel("Publish this post").check();
  await page.getByRole("button", { name: "Create and keep editing" }).click();
  await expect(page).toHaveURL(EDIT_POST);
  const saved = page.getByRole("status").filter({ hasText: "Saved." });
  await expect(saved).toBeVisible();
  const id = EDIT_POST.exec(page.url())![1]!;
  const { slug } = findPostById(id)!;
  await expect(saved.getByRole("link", { name: "View post" })).toHaveAttribute("href", `/blog/${slug}`);
  // A published post is not saved as a draft by mistake: the button is for drafts.
  await expect(page.getByRole("button", { name: "Save draft" })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a post draft with only a title survives a reload and is listed as Draft", async ({ page }) => {
    await saveTitleOnlyPost(page, `Script-free draft ${uniqueSuffix()}`);
  });

  test("a page draft with only a title survives a reload and is listed as Draft", async ({ page }) => {
    await saveTitleOnlyPage(page, `Script-free page ${uniqueSuffix()}`);
  });

  test("View post on a draft shows its preview", async ({ page, context }) => {
    const title = `Script-free preview ${uniqueSuffix()}`;
    const id = await saveTitleOnlyPost(page, title);
    await page.goto(`/admin/posts/edit/${id}`);
    const opened = context.waitForEvent("page");
    await page.getByRole("button", { name: "View post" }).click();
    const preview = await opened;
    await expect(preview.getByText("Preview: this post is not published yet.")).toBeVisible();
    await expect(preview.getByRole("heading", { level: 1, name: title })).toBeVisible();
  });
});
