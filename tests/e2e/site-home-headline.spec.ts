import { expect, test } from "@playwright/test";
import { type OwnBlog, signInToOwnBlog, startOwnBlog, stopOwnBlog } from "./own-blog-support.ts";

// The home page's words are the writer's (Settings → Home page). Saving them changes what every site
// spec reads, so this spec runs its own blog; its tests share it, one after the other.
test.describe.configure({ mode: "serial" });

let blog: OwnBlog | undefined;
test.beforeAll(async () => {
  blog = await startOwnBlog("home-headline");
});
test.afterAll(async () => {
  await stopOwnBlog(blog);
});

/** The home page as a visitor gets it, read twice so the second answer is the page cache's. */
async function readCachedHome(): Promise<string> {
  await fetch(`${blog!.url}/`);
  const cached = await fetch(`${blog!.url}/`);
  expect(cached.headers.get("cache-control")).toContain("public");
  return cached.text();
}

test("the headline changed in Settings shows on the cached home page at once", async ({ page, browser }) => {
  expect(await readCachedHome()).toContain("Notes on building for the web, written to be read slowly");

  const admin = await browser.newPage();
  await signInToOwnBlog(admin, blog!);
  await admin.goto(`${blog!.url}/admin/settings`);
  await expect(admin.getByLabel("Headline")).toHaveValue("Notes on building for the web, written to be read slowly");
  await admin.getByLabel("Headline").fill("Field notes from a small workshop");
  await admin
    .getByLabel("Introduction")
    .fill("Essays on *tools*. Read [the story](https://notes.example/story) first. <script>alert(1)</script>");
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByText("Settings saved. The site shows them now.")).toBeVisible();
  await admin.close();

  await page.goto(`${blog!.url}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Field notes from a small workshop");
  await expect(page.getByRole("link", { name: "the story" })).toHaveAttribute("href", "https://notes.example/story");
  await expect(page.locator("em", { hasText: "tools" })).toBeVisible();
  expect(await page.content()).not.toContain("alert(1)");
});

test("emptied without JavaScript, the headline and introduction leave the home page", async ({ page, browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const admin = await context.newPage();
  await signInToOwnBlog(admin, blog!);
  await admin.goto(`${blog!.url}/admin/settings`);
  await admin.getByLabel("Headline").fill("");
  await admin.getByLabel("Introduction").fill("");
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByText("Settings saved. The site shows them now.")).toBeVisible();
  await context.close();

  await page.goto(`${blog!.url}/`);
  // The welcome line heads the page instead, so it keeps its one h1.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Inkwell");
  await expect(page.getByText("Field notes from a small workshop")).toHaveCount(0);
  await expect(page.getByText("Essays on")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View all posts" })).toBeVisible();
});
