import { type APIRequestContext, expect, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { SAME_ORIGIN, signIn, uniqueSuffix, withDatabase } from "./admin-support";

export interface Account {
  email: string;
  password: string;
  displayName: string;
}

/** The invitation link the Users screen shows the owner, read from the page the owner's form post renders. */
export async function createInvitationLink(ownerRequest: APIRequestContext, email: string): Promise<string> {
  const response = await ownerRequest.post("/admin/users/invite", {
    form: { email },
    headers: SAME_ORIGIN,
    maxRedirects: 0,
  });
  expect(response.status(), "the owner may invite").toBe(200);
  const token = /\/invite\?token=([\w-]+)/.exec(await response.text())?.[1];
  expect(token, "the page shows the invitation link").toBeDefined();
  return `${E2E_ADMIN_URL}/invite?token=${token}`;
}

/**
 * A fresh editor account, invited by the seeded owner and accepted through the invitation
 * form. Tests that turn on two-factor sign-in or change a password use one of these, never
 * the owner account every admin test signs in with.
 */
export async function createEditor(request: APIRequestContext, name = "Editor"): Promise<Account> {
  const account = {
    email: `editor-${uniqueSuffix()}@example.com`,
    password: `editor password ${uniqueSuffix()}`,
    displayName: `${name} ${uniqueSuffix()}`,
  };
  await signIn(request);
  const link = await createInvitationLink(request, account.email);
  const token = new URL(link).searchParams.get("token")!;
  const accepted = await request.post("/invite", {
    form: { token, displayName: account.displayName, password: account.password, confirmPassword: account.password },
    headers: SAME_ORIGIN,
    maxRedirects: 0,
  });
  expect(accepted.status(), "accepting the invitation signs in").toBe(302);
  // The owner's session cookie gave way to the new account's; leave this request context signed out.
  const signedOut = await request.post("/logout", { form: {}, headers: SAME_ORIGIN, maxRedirects: 0 });
  expect(signedOut.status(), "signing out redirects").toBe(302);
  return account;
}

/** A code from an authenticator app holding `secret`, `stepsAhead` 30-second steps from now. */
export function totpCode(secret: string, stepsAhead = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** Six digits that no step the server accepts (±1 around now, and the next while the test runs) would show. */
export function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1, 2].map((steps) => totpCode(secret, steps)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}

/** Starts two-factor enrolment on the account page of a signed-in `page` and reads the key it shows. */
export async function startTwoFactorEnrolment(page: Page): Promise<string> {
  await page.goto("/admin/account");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  return (await page
    .locator("code")
    .filter({ hasText: /^[A-Z2-7]+=*$/ })
    .textContent())!.trim();
}

/**
 * Turns on two-factor sign-in from the account page of a signed-in `page`, as a person with
 * an authenticator app would: reads the key shown, types the app's code, keeps the recovery codes.
 */
export async function enrolInTwoFactor(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  const secret = await startTwoFactorEnrolment(page);
  await page.getByLabel("Code from your app").fill(totpCode(secret));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  return { secret, recoveryCodes: await codes.allTextContents() };
}

export interface AccountRow {
  id: string;
  role: string;
  display_name: string;
}

export function findAccount(email: string): AccountRow | undefined {
  return withDatabase(
    (db) =>
      db.prepare("select id, role, display_name from admins where email = ?").get(email) as AccountRow | undefined,
  );
}

export function countInvitations(email: string): number {
  return withDatabase(
    (db) =>
      (db.prepare("select count(*) as count from invitations where email = ?").get(email) as { count: number }).count,
  );
}

export function siteSettingsVersion(): number {
  return withDatabase(
    (db) =>
      (db.prepare("select max(version) as version from site_settings").get() as { version: number | null }).version ??
      0,
  );
}
