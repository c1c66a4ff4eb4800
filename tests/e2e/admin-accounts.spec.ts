import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import {
  type Account,
  countInvitations,
  createEditor,
  enrolInTwoFactor,
  findAccount,
  siteSettingsVersion,
  totpCode,
  wrongCode,
} from "./admin-accounts-support";
import { SAME_ORIGIN, signIn, signInThroughForm, submitAndWait, uniqueSuffix } from "./admin-support";

/** Signs in through the form and waits to leave it: for /admin, or for the code step when two-factor sign-in is on. */
async function signInWithPassword(page: Page, account: Pick<Account, "email" | "password">): Promise<void> {
  await page.goto("/login");
  await signInThroughForm(page, account);
  // Password hashing is deliberately slow, and the machine may be busy.
  await expect(page).toHaveURL(/\/(admin|login\/code\?.*)$/, { timeout: 15_000 });
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Admin" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
}

test("the owner invites a second account, which joins and then signs in on its own", async ({ page }) => {
  const email = `invited-${uniqueSuffix()}@example.com`;
  const displayName = `Grace ${uniqueSuffix()}`;
  const password = "a new editor's password";

  await signInWithPassword(page, E2E_ADMIN);
  await page.goto("/admin/users");
  await page.getByLabel("Email").fill(email);
  await submitAndWait(page, "Create invitation link");
  const link = await page.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(/\/invite\?token=[\w-]+$/);
  await expect(page.getByRole("region", { name: "Open invitations" })).toContainText(email);
  await signOut(page);

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Join the blog" })).toBeVisible();
  await expect(page.getByText(`You were invited as ${email}`)).toBeVisible();
  await page.getByLabel("Display name").fill(displayName);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Repeat password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await signOut(page);

  // The link was spent.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This invitation link is not valid" })).toBeVisible();

  await signInWithPassword(page, { email, password });
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/account");
  await expect(page.getByText(`${displayName} · ${email}`)).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Admin" });
  await expect(nav.getByRole("link", { name: "Blog Posts" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Users" })).toHaveCount(0);
  expect(findAccount(email)?.role).toBe("editor");
});

test("an editor reaches neither Users, Settings, Tools nor the activity log, by page or by forged post", async ({
  request,
}) => {
  const editor = await createEditor(request);
  const owner = findAccount(E2E_ADMIN.email)!;
  await signIn(request, editor);

  for (const path of ["/admin/users", "/admin/settings", "/admin/settings/activity", "/admin/tools"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(403);
    expect(await response.text(), path).toContain("Only the owner can open this page");
  }
  expect((await request.get("/admin/tools/export", { maxRedirects: 0 })).status()).toBe(403);
  // Their own pages still open.
  expect((await request.get("/admin/account", { maxRedirects: 0 })).status()).toBe(200);

  const settingsBefore = siteSettingsVersion();
  const forgedSettings = await request.post("/admin/settings", {
    form: {
      title: "Taken over",
      description: "",
      aboutUrl: "https://evil.example/",
      sourceUrl: "https://evil.example/",
      postsPerPage: "5",
      timeZone: "UTC",
      footerText: "",
    },
    headers: SAME_ORIGIN,
    maxRedirects: 0,
  });
  expect(forgedSettings.status()).toBe(403);
  expect(siteSettingsVersion()).toBe(settingsBefore);

  const invitee = `forged-${uniqueSuffix()}@example.com`;
  const forgedUserPosts: [string, Record<string, string>][] = [
    ["/admin/users/invite", { email: invitee }],
    ["/admin/users/manage", { intent: "transfer", id: findAccount(editor.email)!.id }],
    ["/admin/users/manage", { intent: "remove", id: owner.id }],
  ];
  for (const [path, form] of forgedUserPosts) {
    const response = await request.post(path, { form, headers: SAME_ORIGIN, maxRedirects: 0 });
    expect(response.status(), `${path} ${form.intent}`).toBe(403);
  }
  expect(countInvitations(invitee)).toBe(0);
  expect(findAccount(editor.email)?.role).toBe("editor");
  expect(findAccount(E2E_ADMIN.email)?.role).toBe("owner");
});

test("an account with two-factor sign-in on signs in with a code from its app", async ({ page, browser }) => {
  const account = await createEditor(page.request, "Two-factor");
  await signInWithPassword(page, account);
  await expect(page).toHaveURL(/\/admin$/);
  const { secret } = await enrolInTwoFactor(page);
  await page.reload();
  await expect(page.getByText("Two-factor sign-in is on. 10 recovery codes left.")).toBeVisible();

  const context = await browser.newContext();
  const other = await context.newPage();
  await signInWithPassword(other, account);
  await expect(other).toHaveURL(/\/login\/code\?redirectTo=%2Fadmin$/);
  await expect(other.getByRole("heading", { name: "Enter your code" })).toBeVisible();

  await other.getByLabel("Code", { exact: true }).fill(wrongCode(secret));
  await submitAndWait(other, "Verify");
  await expect(other.getByText("That code is not valid")).toBeVisible();
  await expect(other).toHaveURL(/\/login\/code/);

  // The code confirming enrolment belongs to this time step and is spent; the app's next one is accepted early.
  await other.getByLabel("Code", { exact: true }).fill(totpCode(secret, 1));
  await other.getByRole("button", { name: "Verify" }).click();
  await expect(other).toHaveURL(/\/admin$/);
  await expect(other.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await context.close();
});

test("a recovery code signs in once, then is refused", async ({ page, browser }) => {
  const account = await createEditor(page.request, "Recovery");
  await signInWithPassword(page, account);
  const { recoveryCodes } = await enrolInTwoFactor(page);
  const recoveryCode = recoveryCodes[3]!;

  for (const expected of ["accepted", "refused"] as const) {
    const context = await browser.newContext();
    const other = await context.newPage();
    await signInWithPassword(other, account);
    await expect(other).toHaveURL(/\/login\/code/);
    await other.getByLabel("Code", { exact: true }).fill(recoveryCode);
    await submitAndWait(other, "Verify");
    if (expected === "accepted") {
      await expect(other).toHaveURL(/\/admin$/);
      await other.goto("/admin/account");
      await expect(other.getByText("Two-factor sign-in is on. 9 recovery codes left.")).toBeVisible();
    } else {
      await expect(other.getByText("That code is not valid")).toBeVisible();
      await expect(other).toHaveURL(/\/login\/code/);
      expect((await context.cookies()).some((cookie) => cookie.name === "blog_session")).toBe(false);
    }
    await context.close();
  }
});

test("the recovery codes are offered as a file to download and to the clipboard", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const account = await createEditor(page.request, "Recovery file");
  await signInWithPassword(page, account);
  const { recoveryCodes } = await enrolInTwoFactor(page);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the codes" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("recovery-codes.txt");
  const file = readFileSync(await download.path(), "utf8");
  for (const code of recoveryCodes) expect(file).toContain(code);

  await page.getByRole("button", { name: "Copy the codes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied." })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.split("\n").filter((line) => recoveryCodes.includes(line))).toHaveLength(10);
});

test("a new site title and page size show on the public site at once, cached pages included", async ({
  page,
  browser,
}) => {
  await signInWithPassword(page, E2E_ADMIN);
  await page.goto("/admin/settings");
  const titleField = page.getByLabel("Site title");
  const pageSizeField = page.getByLabel("Posts per page");
  const original = { title: await titleField.inputValue(), postsPerPage: await pageSizeField.inputValue() };
  const title = `Field Notes ${uniqueSuffix()}`;
  // An anonymous visitor: its pages come from the page cache, which the save must empty.
  const visitor = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const reader = await visitor.newPage();
  const cards = reader.getByRole("main").getByRole("article");
  try {
    await reader.goto("/");
    await expect(reader.getByText(`Welcome to ${original.title}`, { exact: true })).toBeVisible();
    await reader.goto("/blog");
    // The demo blog's 18 published posts, and any a parallel test added, fill more than 10 cards.
    expect(await cards.count()).toBeGreaterThan(10);

    await titleField.fill(title);
    await pageSizeField.fill("10");
    await submitAndWait(page, "Save settings");
    await expect(page.getByText("Settings saved. The site shows them now.")).toBeVisible();

    await reader.goto("/");
    await expect(reader.getByText(`Welcome to ${title}`, { exact: true })).toBeVisible();
    await expect(reader).toHaveTitle(new RegExp(` \\| ${title}$`));
    await reader.goto("/blog");
    await expect(reader).toHaveTitle(`All Blog Posts | ${title}`);
    await expect(cards).toHaveCount(10);
    await reader.getByRole("navigation", { name: "Posts pages" }).getByRole("link", { name: "Older" }).click();
    await expect(reader).toHaveURL(/\/blog\?page=2$/);
    expect(await cards.count()).toBeGreaterThan(0);
  } finally {
    await visitor.close();
    await page.goto("/admin/settings");
    await titleField.fill(original.title);
    await pageSizeField.fill(original.postsPerPage);
    await submitAndWait(page, "Save settings");
    await expect(page.getByText("Settings saved. The site shows them now.")).toBeVisible();
  }
});

test("an account changes its display name, which then signs its new posts", async ({ page }) => {
  const account = await createEditor(page.request, "Renamed");
  await signInWithPassword(page, account);
  await page.goto("/admin/account");
  const field = page.getByRole("textbox", { name: "Display name" });
  await expect(field).toHaveValue(account.displayName);

  await field.fill("   ");
  await submitAndWait(page, "Save display name");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Please enter a display name")).toBeVisible();

  const newName = `Ada ${uniqueSuffix()}`;
  await field.fill(newName);
  await submitAndWait(page, "Save display name");
  await expect(page.getByText("Display name saved.")).toBeVisible();
  await expect(page.getByText(`${newName} · ${account.email}`)).toBeVisible();
  expect(findAccount(account.email)?.display_name).toBe(newName);

  await page.goto("/admin/posts/new");
  await expect(page.getByLabel("Author")).toHaveValue(newName);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("each account form posts on its own and the account page comes back with its message", async ({ page }) => {
    const account = await createEditor(page.request, "Script-free");
    await signInWithPassword(page, account);
    await page.goto("/admin/account");
    const field = page.getByRole("textbox", { name: "Display name" });

    await field.fill("   ");
    await page.getByRole("button", { name: "Save display name" }).click();
    await expect(page.getByText("Please enter a display name")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();

    const newName = `Plain ${uniqueSuffix()}`;
    await page.getByRole("textbox", { name: "Display name" }).fill(newName);
    await page.getByRole("button", { name: "Save display name" }).click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(page.getByRole("status").filter({ hasText: "Display name saved." })).toBeVisible();
    await expect(page.getByText(`${newName} · ${account.email}`)).toBeVisible();

    await page.getByLabel("Current password").fill("not the password");
    await page.getByLabel("New password", { exact: true }).fill("a brand new password");
    await page.getByLabel("Repeat new password").fill("a brand new password");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Your current password is not right")).toBeVisible();

    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel("New password", { exact: true }).fill("a brand new password");
    await page.getByLabel("Repeat new password").fill("a brand new password");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(page.getByText("Password changed. Your other sessions were signed out.")).toBeVisible();

    // A reload shows the message no more: it was shown once.
    await page.reload();
    await expect(page.getByText("Password changed. Your other sessions were signed out.")).toHaveCount(0);
  });

  test("the owner invites and revokes, landing back on Users each time", async ({ page }) => {
    const email = `script-free-${uniqueSuffix()}@example.com`;
    await signInWithPassword(page, E2E_ADMIN);
    await page.goto("/admin/users");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Create invitation link" }).click();
    expect(await page.getByLabel("Invitation link").inputValue()).toMatch(/\/invite\?token=[\w-]+$/);
    const invitations = page.getByRole("region", { name: "Open invitations" });
    await expect(invitations).toContainText(email);

    await invitations.getByRole("button", { name: `Revoke the invitation for ${email}` }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole("status").filter({ hasText: "Invitation revoked." })).toBeVisible();
    await expect(invitations).not.toContainText(email);
    expect(countInvitations(email)).toBe(0);
  });
});
