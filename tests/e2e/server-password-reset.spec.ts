import { expect, test } from "@playwright/test";
import { RESET_REQUESTED_MESSAGE } from "../../domain/account.ts";
import type { SmtpSink } from "../support/smtp-sink.ts";
import { type BlogWithMail, startBlogWithMail } from "./server-with-mail.ts";

// A forgotten password reset by email (issue 35), without JavaScript: a server of its own with
// SMTP_URL pointing at a real SMTP server process, the link read from the email it caught.

const ADMIN = { email: "owner@example.com", password: "a long enough password for the owner" };
const NEW_PASSWORD = "a brand new password for the owner";

let blog: BlogWithMail;
let sink: SmtpSink;
let base: string;

test.beforeAll(async () => {
  blog = await startBlogWithMail("password-reset", { admin: ADMIN });
  ({ sink, base } = blog);
});

test.afterAll(async () => {
  await blog?.stop();
});

test("a writer resets a forgotten password from the emailed link and signs in with the new one", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: base });
  const page = await context.newPage();
  const before = sink.received.length;
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Forgot your password?");

  // An unknown address gets the same answer, and no email.
  await page.getByRole("textbox", { name: "Email", exact: true }).fill("nobody@example.com");
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toHaveText(RESET_REQUESTED_MESSAGE);
  await page.goto("/forgot-password");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(ADMIN.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toHaveText(RESET_REQUESTED_MESSAGE);

  await expect.poll(() => sink.received.length, { timeout: 15_000 }).toBe(before + 1);
  const email = sink.received.at(-1)!;
  expect(email.to).toBe(ADMIN.email);
  const link = email.parsed!.text?.match(/https?:\/\/\S+\/reset-password\?token=[^\s)\]>]+/)?.[0];
  expect(link, `a reset link in:\n${email.parsed!.text}`).toBeDefined();
  const url = new URL(link!);

  await page.goto(url.pathname + url.search);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose a new password");
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Repeat password").fill("not the same password at all");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Repeat password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page).toHaveURL(/\/login\?reset=1$/);

  await page.getByRole("textbox", { name: "Email", exact: true }).fill(ADMIN.email);
  await page.getByLabel("Password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin/);

  // The link worked once.
  await page.goto(url.pathname + url.search);
  await expect(page.getByText("This link has expired or has already been used. Ask for a new one.")).toBeVisible();
  await context.close();
});

test("an invitation goes to the invited address by email, and its link makes the account", async ({ browser }) => {
  // A server of its own: the reset above changes the owner's password.
  const inviting = await startBlogWithMail("invitation", { admin: ADMIN });
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: inviting.base });
  try {
    const page = await context.newPage();
    await inviting.signIn(page);
    await page.goto("/admin/users");
    await expect(page.getByText("It goes to them by email, and is shown here too")).toBeVisible();
    await page.getByRole("textbox", { name: "Email", exact: true }).fill("new.writer@example.com");
    await page.getByRole("button", { name: "Create invitation link" }).click();
    await expect(page.getByRole("status")).toContainText(
      "An email with the link is on its way to new.writer@example.com.",
    );

    await expect.poll(() => inviting.sink.received.length, { timeout: 15_000 }).toBe(1);
    const email = inviting.sink.received[0]!;
    expect(email.to).toBe("new.writer@example.com");
    expect(email.parsed!.subject).toMatch(/invited you to write on/);
    const link = email.parsed!.text?.match(/https?:\/\/\S+\/invite\?token=[^\s)\]>]+/)?.[0];
    expect(link, `an invitation link in:\n${email.parsed!.text}`).toBeDefined();
    await expect(page.getByLabel("Invitation link")).toHaveValue(link!);
    await context.clearCookies();

    const url = new URL(link!);
    await page.goto(url.pathname + url.search);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join the blog");
    await page.getByLabel("Display name").fill("New Writer");
    await page.getByLabel("Password", { exact: true }).fill("a long enough password for the new writer");
    await page.getByLabel("Repeat password").fill("a long enough password for the new writer");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/admin/);
  } finally {
    await context.close();
    await inviting.stop();
  }
});
