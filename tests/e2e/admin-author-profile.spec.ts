import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { demoPosts } from "../../server/demo/demo-content.ts";
import { signInThroughForm } from "./admin-support";
import { findFreePort, type StartedServer, startServer, waitForOutput } from "./server-support.ts";

// Its own server: renaming the owner after a demo author changes every byline other specs read.
const OWNER = { email: "owner@example.com", password: "a passphrase nobody guesses" };
const AUTHOR = "Maya Chen";
const BIO = "Maya writes about databases and the tests that keep them honest.";
const authorsPosts = demoPosts.filter((post) => post.author === AUTHOR).toSorted((a, b) => a.daysAgo - b.daysAgo);
const published = authorsPosts.filter((post) => post.published);
const drafts = authorsPosts.filter((post) => !post.published);

test.describe.configure({ mode: "serial" });

let directory: string;
let server: StartedServer;
let url: string;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  directory = mkdtempSync(path.join(tmpdir(), "blog-authors-"));
  const port = await findFreePort();
  url = `http://127.0.0.1:${port}`;
  server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: url,
    DATABASE_URL: `file:${directory}/blog.sqlite`,
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
  });
  await waitForOutput(server, /Blog ready at/);
});

test.afterAll(async () => {
  server.child.kill("SIGTERM");
  await server.exit;
  rmSync(directory, { recursive: true, force: true });
});

async function submit(page: Page, button: string) {
  await Promise.all([page.waitForURL(`${url}/admin/account`), page.getByRole("button", { name: button }).click()]);
}

test("a bio and picture set on the profile show under the author's posts and on their page", async ({ page }) => {
  expect(published.length).toBeGreaterThan(0);
  await page.goto(`${url}/login`);
  await signInThroughForm(page, OWNER);
  await page.waitForURL(`${url}/admin`);
  await page.goto(`${url}/admin/account`);

  await page.getByRole("textbox", { name: "Display name" }).fill(AUTHOR);
  await submit(page, "Save display name");
  await page.getByRole("textbox", { name: "Author page address" }).fill("");
  await page.getByRole("textbox", { name: "Bio" }).fill(BIO);
  await submit(page, "Save author profile");
  await expect(page.getByText("Author profile saved.")).toBeVisible();
  // A blank address is made from the name.
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Author page address" })).toHaveValue("maya-chen");

  const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#4f46e5" } })
    .png()
    .toBuffer();
  await page.getByLabel("Your picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: picture });
  await submit(page, "Upload picture");
  await expect(page.getByText("Picture saved.")).toBeVisible();
  await expect(page.getByRole("img", { name: "Your current picture" })).toBeVisible();

  // A reader's post page: the author box with the bio and the picture, the byline linking to the page.
  const reader = await page.context().browser()!.newPage();
  try {
    const post = published[0]!;
    await reader.goto(`${url}/blog`);
    const card = reader.getByRole("article").filter({ has: reader.getByRole("heading", { name: post.title }) });
    await expect(card.getByRole("link", { name: AUTHOR })).toHaveAttribute("href", "/author/maya-chen");
    await reader.getByRole("link", { name: post.title }).first().click();
    const box = reader.locator("[data-author-box]");
    await expect(box).toContainText(`Written by ${AUTHOR}`);
    await expect(box).toContainText(BIO);
    const avatar = box.locator("img");
    await expect(avatar).toHaveAttribute("src", /^\/media\/[0-9a-f]{64}\/96\.png$/);
    const file = await reader.request.get(`${url}${await avatar.getAttribute("src")}`);
    expect(file.headers()["content-type"]).toBe("image/png");
    expect(await sharp(await file.body()).metadata()).toMatchObject({ width: 96, height: 96 });
    const jsonLd = await reader.locator('script[type="application/ld+json"]').allTextContents();
    const posting = jsonLd.map((text) => JSON.parse(text)).find((data) => data["@type"] === "BlogPosting");
    expect(posting.author).toMatchObject({
      "@type": "Person",
      name: AUTHOR,
      url: `${url}/author/maya-chen`,
      image: expect.stringMatching(new RegExp(`^${url}/media/[0-9a-f]{64}/192\\.png$`)),
    });

    await box.getByRole("link", { name: AUTHOR }).click();
    await expect(reader).toHaveURL(`${url}/author/maya-chen`);
    await expect(reader.getByRole("heading", { level: 1 })).toHaveText(AUTHOR);
    await expect(reader.getByText(BIO)).toBeVisible();
    await expect(reader.locator("[data-author-header] img")).toBeVisible();
    await expect(reader.getByRole("main").getByRole("article").getByRole("heading")).toHaveText(
      published.map((item) => item.title),
    );
    for (const draft of drafts) await expect(reader.getByText(draft.title)).toHaveCount(0);
    await expect(reader.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/192\.png$/);

    const sitemap = await (await reader.request.get(`${url}/sitemaps/authors.xml`)).text();
    expect(sitemap).toContain(`<loc>${url}/author/maya-chen</loc>`);
    const index = await (await reader.request.get(`${url}/sitemap.xml`)).text();
    expect(index).toContain(`<loc>${url}/sitemaps/authors.xml</loc>`);
  } finally {
    await reader.close();
  }

  await page.getByRole("button", { name: "Remove picture" }).click();
  await expect(page.getByText("Picture removed.")).toBeVisible();
});

test("an address with no letter or digit is refused with the reason", async ({ page }) => {
  await page.goto(`${url}/login`);
  await signInThroughForm(page, OWNER);
  await page.waitForURL(`${url}/admin`);
  await page.goto(`${url}/admin/account`);
  await page.getByRole("textbox", { name: "Author page address" }).fill("---");
  await page.getByRole("button", { name: "Save author profile" }).click();
  await expect(page.getByText("Address must contain a letter or a digit")).toBeVisible();
});
