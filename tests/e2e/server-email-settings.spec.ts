import { type Browser, expect, type Page, type Response, test } from "@playwright/test";
import { SUBSCRIBE_ANSWER, SUBSCRIPTIONS_CLOSED_MESSAGE } from "../../domain/newsletter.ts";
import type { SmtpSink } from "../support/smtp-sink.ts";
import { findFreePort, type StartedServer } from "./server-support.ts";
import { type BlogWithMail, startBlogWithMail } from "./server-with-mail.ts";

// Email set up from the admin (issue 35): a server started with no SMTP_URL, Settings → Email
// filled in against a real SMTP server process, a test email sent, and a reader subscribing and
// receiving the confirmation, all without restarting the server.

const ADMIN = { email: "owner@example.com", password: "a long enough password for the owner" };

let blog: BlogWithMail;
let server: StartedServer;
let sink: SmtpSink;
let base: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  blog = await startBlogWithMail("email-settings", { admin: ADMIN, mailFromEnvironment: false });
  ({ server, sink, base } = blog);
});

test.afterAll(async () => {
  await blog?.stop();
});

const signIn = (page: Page) => blog.signIn(page);

/** A reader's page, as readers see it: no JavaScript, no cookie, through the page cache. */
async function readerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: base });
  return context.newPage();
}

async function fillServer(page: Page, port: number) {
  await page.getByLabel("SMTP server").fill("127.0.0.1");
  await page.getByLabel("Port").fill(String(port));
  await page.getByLabel("Security").selectOption("none");
  await page.getByLabel("From address").fill("news@blog.example");
}

test("a refused test email says why in plain words, without JavaScript", async ({ browser }) => {
  const reader = await readerPage(browser);
  await reader.goto("/");
  await expect(reader.getByRole("contentinfo")).toContainText(SUBSCRIPTIONS_CLOSED_MESSAGE);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page);
  await page.goto(`${base}/admin/settings`);
  await page.getByRole("link", { name: "Email", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Email");

  const closed = await findFreePort();
  await fillServer(page, closed);
  await page.getByLabel("SMTP server").fill("smtp example");
  await page.getByRole("button", { name: "Save email settings" }).click();
  await expect(page.getByText("Enter the mail server's name, such as smtp.example.com")).toBeVisible();

  await fillServer(page, closed);
  await page.getByRole("button", { name: "Save email settings" }).click();
  await expect(page.getByRole("status")).toHaveText("Email settings saved. Send a test email to turn email on.");
  await expect(page.getByText("Email is off until a test email goes through with the saved settings.")).toBeVisible();
  await page.getByRole("button", { name: "Send a test email" }).click();
  await expect(
    page.getByText(
      `Could not reach 127.0.0.1 on port ${closed}. Check the name and the port, and that the mail server lets this machine in.`,
    ),
  ).toBeVisible();
  await context.close();
});

test("a writer sets email up on Settings → Email, and a reader subscribes at once, with no restart", async ({
  page,
  browser,
}) => {
  await signIn(page);
  await page.goto(`${base}/admin/settings/email`);
  await fillServer(page, sink.port);
  await page.getByRole("button", { name: "Save email settings" }).click();
  await expect(page.getByText("Email settings saved. Send a test email to turn email on.")).toBeVisible();

  await page.getByRole("button", { name: "Send a test email" }).click();
  await expect(page.getByText("The test email went out: the mail server took it. Email is on.")).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText("Email is on: readers can subscribe, and new posts can be emailed.")).toBeVisible();
  expect(sink.received).toHaveLength(1);
  expect(sink.received[0]!.to).toBe(ADMIN.email);
  expect(sink.received[0]!.parsed!.from?.value[0]?.address).toBe("news@blog.example");

  const reader = await readerPage(browser);
  await reader.goto("/");
  const footer = reader.getByRole("contentinfo");
  await footer.getByLabel("Email address").fill("reader@example.com");
  await footer.getByRole("button", { name: "Subscribe" }).click();
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(SUBSCRIBE_ANSWER);

  await expect
    .poll(() => sink.received.filter((email) => email.to === "reader@example.com").length, {
      timeout: 15_000,
    })
    .toBe(1);
  const confirmation = sink.received.find((email) => email.to === "reader@example.com")!.parsed!;
  expect(confirmation.from?.value[0]?.address).toBe("news@blog.example");
  const link = confirmation.text?.match(/https?:\/\/\S+\/subscribe\/confirm\?token=[^\s)\]>]+/)?.[0];
  expect(link, `a confirmation link in:\n${confirmation.text}`).toBeDefined();
  const url = new URL(link!);
  await reader.goto(url.pathname + url.search);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText("You are subscribed");

  // The password field never shows a saved password; the server is the same process throughout.
  expect(server.child.exitCode).toBeNull();
});

test("too many test emails are refused in words, with when to try again, without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page);
  await page.goto(`${base}/admin/settings/email`);
  // Ten tests in ten minutes are plenty; the tests above sent two.
  let refusal: Response | undefined;
  for (let tries = 0; tries < 10 && !refusal; tries += 1) {
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Send a test email" }).click(),
    ]);
    if (answer.status() === 429) refusal = answer;
  }
  expect(refusal?.status()).toBe(429);
  expect(Number(refusal!.headers()["retry-after"])).toBeGreaterThan(0);
  await expect(
    page.getByText("That is a lot of test emails. Please wait a few minutes before sending another."),
  ).toBeVisible();
  await context.close();
});
