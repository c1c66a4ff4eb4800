import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import {
  CONFIRM_LINK_INVALID_MESSAGE,
  SUBSCRIBE_ANSWER,
  SUBSCRIPTIONS_CLOSED_MESSAGE,
  UNSUBSCRIBE_LINK_INVALID_MESSAGE,
} from "../../domain/newsletter.ts";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import { createSubscriptionTokens } from "../../server/newsletter/subscriptions.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { findFreePort, type StartedServer, startServer, waitForOutput } from "./server-support.ts";

// A reader subscribes, confirms and unsubscribes on the production server, with no JavaScript,
// against a real SMTP server (issue 24, "Subscribing"). Readers' pages load no React
// (docs/decisions/0011), so the forms are plain HTML posts.

const SECRET = "site newsletter secret, thirty-two characters or more";
const ONE_CLICK = "List-Unsubscribe=One-Click";
/** Longer than the outbox worker's idle poll (2 s), so an email that was going to go would have. */
const QUIET_MS = 5_000;

let sink: SmtpSink;
let server: StartedServer;
let origin: string;
let directory: string;
let handle: DatabaseHandle;
const tokens = createSubscriptionTokens({ secret: SECRET, now: () => new Date() });

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  sink = await startSmtpSink();
  directory = mkdtempSync(path.join(tmpdir(), "blog-site-newsletter-"));
  const port = await findFreePort();
  origin = `http://127.0.0.1:${port}`;
  const databaseFile = path.join(directory, "blog.sqlite");
  server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: origin,
    DATABASE_URL: `file:${databaseFile}`,
    SESSION_SECRET: SECRET,
    COMMENT_IP_SALT: "site newsletter salt, thirty-two characters long",
    SMTP_URL: sink.url,
    MAIL_FROM: "Inkwell <news@blog.example>",
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

function emailsTo(address: string) {
  return sink.received.filter((email) => email.to === address);
}

/** Waits for the `count`th email to `address` and returns the confirmation link it carries. */
async function confirmationLink(address: string, count = 1): Promise<URL> {
  await expect.poll(() => emailsTo(address).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const email = emailsTo(address)[count - 1]!.parsed!;
  const link = email.text?.match(/https?:\/\/\S+\/subscribe\/confirm\?token=[^\s)\]>]+/)?.[0];
  expect(link, `a confirmation link in:\n${email.text}`).toBeDefined();
  const url = new URL(link!);
  expect(url.origin).toBe(origin);
  return url;
}

async function stateOf(address: string): Promise<string | undefined> {
  const row = await handle.db.selectFrom("subscribers").select("state").where("email", "=", address).executeTakeFirst();
  return row?.state;
}

/** The subscriber's own unsubscribe link, as their post emails carry it. */
function unsubscribePath(confirmUrl: URL): string {
  const subscriberId = confirmUrl.searchParams.get("token")!.split(".")[1]!;
  return `/unsubscribe?token=${encodeURIComponent(tokens.unsubscribeToken(subscriberId))}`;
}

/** Subscribes from the footer of the home page and confirms through the email's link. */
async function subscribeAndConfirm(page: Page, address: string, count = 1): Promise<URL> {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  await footer.getByLabel("Email address").fill(address);
  await footer.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(SUBSCRIBE_ANSWER);
  const link = await confirmationLink(address, count);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are subscribed");
  expect(await stateOf(address)).toBe("active");
  return link;
}

test("a reader subscribes from the footer without JavaScript and confirms through the email's link", async ({
  browser,
}) => {
  const page = await readerPage(browser);
  await page.goto("/");
  const form = page.getByRole("contentinfo").locator("form");
  await expect(form).toHaveAttribute("method", "post");
  await expect(form).toHaveAttribute("action", "/subscribe");
  await expect(form.locator('input[type="email"][name="email"]')).toHaveCount(1);
  await expect(form).toContainText("Subscribers only get new posts; unsubscribe in one click");
  // A reader's page loads no application JavaScript (docs/decisions/0011).
  await expect(page.locator("script[src], link[rel=modulepreload]")).toHaveCount(0);

  const link = await subscribeAndConfirm(page, "reader.one@example.com");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  const email = emailsTo("reader.one@example.com")[0]!.parsed!;
  expect(email.subject).toBeTruthy();
  expect(email.html || "").toContain(link.pathname);

  // Again, from the end of a post: the same answer, and no second email for an active address.
  await page.goto("/blog");
  const postHref = await page.locator("main a[href^='/blog/']").first().getAttribute("href");
  await page.goto(postHref!);
  const postForm = page.getByRole("main").locator("form[action='/subscribe']");
  await postForm.getByLabel("Email address").fill("reader.one@example.com");
  await postForm.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(SUBSCRIBE_ANSWER);
  await page.waitForTimeout(QUIET_MS);
  expect(emailsTo("reader.one@example.com")).toHaveLength(1);
});

test("a refused address comes back to the subscribe page with the reason", async ({ browser }) => {
  const page = await readerPage(browser);
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  await footer.getByLabel("Email address").fill("not an address");
  const [response] = await Promise.all([
    page.waitForResponse((answer) => answer.url().endsWith("/subscribe") && answer.request().method() === "POST"),
    footer.getByRole("button", { name: "Subscribe" }).click(),
  ]);
  expect(response.status()).toBe(400);
  await expect(page.getByRole("main")).toContainText("Please enter a valid email address");
  await expect(page.getByRole("main").getByLabel("Email address")).toHaveValue("not an address");
});

test("RFC 8058 one-click: a POST from a mail provider, with no cookie and no Origin, unsubscribes", async ({
  browser,
}) => {
  const page = await readerPage(browser);
  const address = "one.click@example.com";
  const link = await subscribeAndConfirm(page, address);
  const response = await fetch(`${origin}${unsubscribePath(link)}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: ONE_CLICK,
  });
  expect(response.status).toBe(200);
  expect(await stateOf(address)).toBe("unsubscribed");
  // Used again (a second click, a provider's retry): the same success.
  const again = await fetch(`${origin}${unsubscribePath(link)}`, {
    method: "POST",
    body: new URLSearchParams(ONE_CLICK),
  });
  expect(again.status).toBe(200);
});

test("the unsubscribe page does nothing on its own; its one button unsubscribes", async ({ browser }) => {
  const page = await readerPage(browser);
  const address = "button.click@example.com";
  const link = await subscribeAndConfirm(page, address);
  await page.goto(unsubscribePath(link));
  // Mail scanners open links: a GET must leave the subscription as it is.
  expect(await stateOf(address)).toBe("active");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are unsubscribed");
  expect(await stateOf(address)).toBe("unsubscribed");
});

test("a forged link gets a clear 400 page, never a 500", async ({ browser }) => {
  const page = await readerPage(browser);
  const forgedUnsubscribe = await page.goto("/unsubscribe?token=u.someone.forged-signature");
  expect(forgedUnsubscribe?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(UNSUBSCRIBE_LINK_INVALID_MESSAGE);

  const forgedConfirm = await page.goto("/subscribe/confirm?token=c.someone.zz.forged");
  expect(forgedConfirm?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(CONFIRM_LINK_INVALID_MESSAGE);
  expect((await page.goto("/subscribe/confirm"))?.status()).toBe(400);

  const forgedOneClick = await fetch(`${origin}/unsubscribe?token=u.someone.forged`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: ONE_CLICK,
  });
  expect(forgedOneClick.status).toBe(400);
});

test("without SMTP_URL the form says subscriptions are not open yet, and its action refuses", async ({
  page,
  baseURL,
}) => {
  // The shared site server runs without SMTP_URL.
  await page.goto("/");
  await expect(page.getByRole("contentinfo")).toContainText(SUBSCRIPTIONS_CLOSED_MESSAGE);
  await expect(page.getByRole("contentinfo").locator("input[name='email']")).toHaveCount(0);
  const response = await page.request.post("/subscribe", {
    form: { email: "closed@example.com" },
    headers: { Origin: baseURL! },
  });
  expect(response.status()).toBe(403);
  expect(await response.text()).toContain(SUBSCRIPTIONS_CLOSED_MESSAGE);
});

test("the privacy page says what a subscription keeps and that nothing is tracked", async ({ page }) => {
  await page.goto("/privacy");
  const newsletter = page.getByRole("listitem").filter({ hasText: "Newsletter." });
  await expect(newsletter).toContainText("only your email address and the state of your subscription");
  await expect(newsletter).toContainText("no tracking pixel and no rewritten links");
  await expect(newsletter).toContainText("unsubscribe in one click");
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the open forms pass axe in the ${colorScheme} theme, under a post and refused on /subscribe`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: origin, colorScheme });
    const page = await context.newPage();
    await page.goto("/blog");
    await page.goto((await page.locator("main a[href^='/blog/']").first().getAttribute("href"))!);
    await expect(page.locator("form[action='/subscribe']")).toHaveCount(2);
    const violations = async () =>
      (await new AxeBuilder({ page }).analyze()).violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
    expect(await violations()).toEqual([]);

    const footer = page.getByRole("contentinfo");
    await footer.getByLabel("Email address").fill("not an address");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("main")).toContainText("Please enter a valid email address");
    expect(await violations()).toEqual([]);
    await context.close();
  });
}
