import { expect, type Page, test } from "@playwright/test";
import { openDatabase } from "../../server/kernel/db/connect.ts";
import type { SmtpSink } from "../support/smtp-sink.ts";
import { insertActiveSubscribers } from "../support/subscribers.ts";
import { type BlogWithMail, startBlogWithMail } from "./server-with-mail.ts";

// The editor's "Email this post to subscribers" on a server of its own with SMTP_URL (the shared
// admin server has none): the box, the send's progress with "Cancel sending", and what the editor
// and the posts list say afterwards.

const ADMIN = { email: "owner@example.com", password: "a long enough password for the owner" };
const SUBSCRIBERS = 4;

let blog: BlogWithMail;
let sink: SmtpSink;
let directory: string;
let base: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  blog = await startBlogWithMail("post-email", {
    admin: ADMIN,
    // One message a second, one at a time: the send is slow enough to watch.
    env: { SMTP_RATE: "1" },
  });
  ({ sink, directory, base } = blog);
  const handle = await openDatabase({ dialect: "sqlite", filename: `${directory}/blog.sqlite` });
  await insertActiveSubscribers(handle.db, SUBSCRIBERS);
  await handle.close();
});

test.afterAll(async () => {
  await blog?.stop();
});

const signIn = (page: Page) => blog.signIn(page);

async function publishWithEmail(page: Page, title: string) {
  await page.goto(`${base}/admin/posts/new`);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("<p>Herons wait at the water's edge.</p>");
  await page.getByLabel("Excerpt").fill("On herons.");
  await page.getByLabel("Category").selectOption("Design");
  await page.getByLabel("Cover image URL").fill("https://images.example.com/heron.jpg");
  await page.getByLabel("Publish this post").check();
  const box = page.getByLabel("Email this post to subscribers");
  await expect(box).toBeEnabled();
  await expect(box).not.toBeChecked();
  await box.check();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
}

test("a send shows its progress on the editor and the list, and Cancel sending stops it", async ({ page }) => {
  let answer = () => {};
  sink.hold = new Promise((resolve) => (answer = resolve));
  await signIn(page);
  await publishWithEmail(page, "A heron at dawn");
  const row = page.getByRole("row").filter({ hasText: "A heron at dawn" });
  await expect(row).toContainText(`Emailing: 0 of ${SUBSCRIBERS}`);

  await row.getByRole("link", { name: /^Edit/ }).click();
  await expect(page.getByText(`Sending to subscribers: 0 of ${SUBSCRIBERS} sent.`)).toBeVisible();
  await expect(page.getByLabel("Email this post to subscribers")).toHaveCount(0);
  await page.getByRole("button", { name: "Cancel sending" }).click();
  await expect(page.getByText("Sending cancelled: the subscribers not yet emailed will not be.")).toBeVisible();
  answer();
  sink.hold = undefined;
  // The message already with SMTP when the writer cancelled went out; no other did.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(new RegExp(`Sending cancelled on .*: 1 of ${SUBSCRIBERS} sent\\.`))).toBeVisible();
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Cancel sending" })).toHaveCount(0);
  expect(sink.received).toHaveLength(1);
});

test("after its send the editor says when and to how many, and the box is gone", async ({ page }) => {
  const before = sink.received.length;
  await signIn(page);
  await publishWithEmail(page, "A heron at dusk");
  await sink.waitFor(before + SUBSCRIBERS, 30_000);
  const row = page.getByRole("row").filter({ hasText: "A heron at dusk" });
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText(`Emailed to ${SUBSCRIBERS} subscribers`);
  }).toPass({ timeout: 15_000 });
  await row.getByRole("link", { name: /^Edit/ }).click();
  await expect(
    page.getByText(new RegExp(`Emailed to ${SUBSCRIBERS} subscribers on \\w{3} \\d+, \\d{4}, `)),
  ).toBeVisible();
  await expect(page.getByLabel("Email this post to subscribers")).toHaveCount(0);

  // Unpublished and published again: nothing more is sent.
  await page.getByLabel("Publish this post").uncheck();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  await row.getByRole("link", { name: /^Edit/ }).click();
  await page.getByLabel("Publish this post").check();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  await page.waitForTimeout(2_500);
  expect(sink.received).toHaveLength(before + SUBSCRIBERS);
});
