import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { REPLY_EMAIL_LABEL } from "../../domain/comment-emails.ts";
import { createAddressKeys } from "../../server/comment-emails/sealed-address.ts";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { findFreePort, type StartedServer, startServer, waitForOutput } from "./server-support.ts";

// A reader leaves an address for replies on the comment form, without JavaScript, on a production
// server with email on (issue 34, "The writer's day"); the writer gets the comment by email, the
// address is kept only hashed and sealed, and the reader's one-click link forgets it.

const SECRET = "site comment emails secret, thirty-two characters or more";
const OWNER = "owner@blog.example";
const READER = "reader.e2e@mail.example";

let sink: SmtpSink;
let server: StartedServer;
let origin: string;
let directory: string;
let handle: DatabaseHandle;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  sink = await startSmtpSink();
  directory = mkdtempSync(path.join(tmpdir(), "blog-site-comment-emails-"));
  const port = await findFreePort();
  origin = `http://127.0.0.1:${port}`;
  const databaseFile = path.join(directory, "blog.sqlite");
  server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: origin,
    DATABASE_URL: `file:${databaseFile}`,
    SESSION_SECRET: SECRET,
    COMMENT_IP_SALT: "site comment emails salt, thirty-two characters",
    SMTP_URL: sink.url,
    MAIL_FROM: "Inkwell <news@blog.example>",
    ADMIN_EMAIL: OWNER,
    ADMIN_PASSWORD: "a long enough password for the owner",
  });
  await waitForOutput(server, /Blog ready at http:\/\/127\.0\.0\.1:\d+/);
  handle = await openDatabase({ dialect: "sqlite", filename: databaseFile });
});

test.afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exit;
  await handle?.close();
  await sink?.close();
  rmSync(directory, { recursive: true, force: true });
});

async function readerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: origin });
  return context.newPage();
}

async function firstPostPath(): Promise<string> {
  const post = await handle.db
    .selectFrom("posts")
    .select("slug")
    .where("published", "=", 1)
    .orderBy("created_at")
    .executeTakeFirstOrThrow();
  return `/blog/${post.slug}`;
}

test("a reader asks to hear of replies; the writer gets the comment by email and the address is kept only sealed", async ({
  browser,
}) => {
  const page = await readerPage(browser);
  await page.goto(await firstPostPath());
  await page.getByRole("textbox", { name: "Name" }).fill("Ada");
  await page.getByRole("textbox", { name: "Comment" }).fill("Where were these herons?");
  await page.getByLabel(REPLY_EMAIL_LABEL).fill(READER);
  await page.getByRole("button", { name: "Post Comment" }).click();
  await expect(
    page.getByRole("list", { name: "Comments, newest first" }).getByText("Where were these herons?"),
  ).toBeVisible();
  // The address is never shown back.
  await expect(page.getByText(READER)).toHaveCount(0);

  await expect.poll(() => sink.received.filter((email) => email.to === OWNER).length, { timeout: 15_000 }).toBe(1);
  const notice = sink.received.find((email) => email.to === OWNER)!.parsed!;
  expect(notice.subject).toMatch(/^New comment on “.+”$/);
  expect(notice.text).toContain("Where were these herons?");
  expect(notice.text).not.toContain(READER);

  const kept = await handle.db.selectFrom("comment_reply_addresses").selectAll().execute();
  expect(kept).toHaveLength(1);
  expect(JSON.stringify(kept)).not.toContain("reader.e2e");
});

test("a refused address comes back to the form with the reason, the comment kept", async ({ browser }) => {
  const page = await readerPage(browser);
  await page.goto(await firstPostPath());
  await page.getByRole("textbox", { name: "Name" }).fill("Ada");
  await page.getByRole("textbox", { name: "Comment" }).fill("A second thought");
  await page.getByLabel(REPLY_EMAIL_LABEL).fill("not an address");
  await page.getByRole("button", { name: "Post Comment" }).click();
  await expect(page.getByText("Please enter a valid email address, or leave it empty")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Comment" })).toHaveValue("A second thought");
});

test("the comment form with its address field passes axe", async ({ browser }) => {
  // axe runs as a script in the page, so this one page allows JavaScript.
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await page.goto(await firstPostPath());
  await expect(page.getByLabel(REPLY_EMAIL_LABEL)).toBeVisible();
  const results = await new AxeBuilder({ page }).include("#comment-replyEmail").include("#comment-content").analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
  await context.close();
});

test("the reader's one-click link: the page does nothing on its own, its button forgets the address", async ({
  browser,
}) => {
  const { comment_id: commentId } = await handle.db
    .selectFrom("comment_reply_addresses")
    .select("comment_id")
    .executeTakeFirstOrThrow();
  const token = createAddressKeys(SECRET).unsubscribeToken(commentId);
  const page = await readerPage(browser);
  await page.goto(`/unsubscribe/replies?token=${encodeURIComponent(token)}`);
  await expect(page.getByRole("heading", { name: "Stop reply emails" })).toBeVisible();
  expect(await handle.db.selectFrom("comment_reply_addresses").selectAll().execute()).toHaveLength(1);
  await page.getByRole("button", { name: "Stop reply emails" }).click();
  await expect(page.getByRole("heading", { name: "No more reply emails" })).toBeVisible();
  expect(await handle.db.selectFrom("comment_reply_addresses").selectAll().execute()).toEqual([]);

  // A mail provider's RFC 8058 POST, no cookie and no Origin, succeeds again.
  const oneClick = await fetch(`${origin}/unsubscribe/replies?token=${encodeURIComponent(token)}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(oneClick.status).toBe(200);

  const forged = await page.goto("/unsubscribe/replies?token=r.forged.token");
  expect(forged?.status()).toBe(400);
  await expect(page.getByText("This unsubscribe link is not valid. Use the whole link from the email.")).toBeVisible();
});
