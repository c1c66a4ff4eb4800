import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import {
  createEditor,
  createInvitationLink,
  startTwoFactorEnrolment,
  totpCode,
  wrongCode,
} from "./admin-accounts-support";
import { signIn, signInThroughForm, submitAndWait, uniqueSuffix } from "./admin-support";
import { useStoredTheme } from "./site-fixtures";

async function expectNoViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(summary, label).toEqual([]);
}

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    const themed = async (page: Page) => {
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    };

    test.beforeEach(async ({ page }) => {
      await useStoredTheme(page, theme);
    });

    test("the owner's Settings, Users and activity screens pass axe", async ({ page, request }) => {
      // An editor, so the Users screen shows the buttons that act on another account.
      const editor = await createEditor(request);
      await signIn(page.request);

      await page.goto("/admin/settings");
      await themed(page);
      await expectNoViolations(page, `settings (${theme})`);
      await page.getByLabel("Posts per page").fill("0");
      await submitAndWait(page, "Save settings");
      await expect(page.getByText("Posts per page must be a whole number from 1 to 100")).toBeVisible();
      await expectNoViolations(page, `settings with an error (${theme})`);

      await page.goto("/admin/users");
      await page.getByLabel("Email").fill(`a11y-${uniqueSuffix()}@example.com`);
      await submitAndWait(page, "Create invitation link");
      await expect(page.getByLabel("Invitation link")).toBeVisible();
      await expect(page.getByRole("button", { name: `Make owner: ${editor.displayName}` })).toBeVisible();
      await expectNoViolations(page, `users with a new invitation (${theme})`);

      await page.goto("/admin/settings/activity");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoViolations(page, `activity log (${theme})`);
    });

    test("the invitation screens pass axe", async ({ page, request }) => {
      // The owner invites from a context of its own, so the invited person's browser starts signed out.
      await signIn(request);
      const link = await createInvitationLink(request, `a11y-${uniqueSuffix()}@example.com`);

      await page.goto(link);
      await themed(page);
      await expect(page.getByRole("heading", { name: "Join the blog" })).toBeVisible();
      await expectNoViolations(page, `invitation (${theme})`);
      await page.getByLabel("Display name").fill("Someone");
      await page.getByLabel("Password", { exact: true }).fill("short");
      await submitAndWait(page, "Create account");
      await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
      await expectNoViolations(page, `invitation with errors (${theme})`);

      await page.goto("/invite?token=no-such-token");
      await expect(page.getByRole("heading", { name: "This invitation link is not valid" })).toBeVisible();
      await expectNoViolations(page, `spent invitation (${theme})`);
    });

    test("the account page and the two-factor code step pass axe", async ({ page, browser }) => {
      const account = await createEditor(page.request, "Accessible");
      await page.goto("/login");
      await signInThroughForm(page, account);
      await expect(page).toHaveURL(/\/admin$/, { timeout: 15_000 });

      await page.goto("/admin/account");
      await themed(page);
      await expectNoViolations(page, `account (${theme})`);
      const secret = await startTwoFactorEnrolment(page);
      await expectNoViolations(page, `two-factor enrolment (${theme})`);
      await page.getByLabel("Code from your app").fill(totpCode(secret));
      await submitAndWait(page, "Turn on two-factor sign-in");
      await expect(page.getByRole("list", { name: "Recovery codes" })).toBeVisible();
      await expectNoViolations(page, `recovery codes (${theme})`);

      const context = await browser.newContext();
      const other = await context.newPage();
      await useStoredTheme(other, theme);
      await other.goto("/login");
      await signInThroughForm(other, account);
      await expect(other).toHaveURL(/\/login\/code/, { timeout: 15_000 });
      await themed(other);
      await expectNoViolations(other, `code step (${theme})`);
      await other.getByLabel("Code", { exact: true }).fill(wrongCode(secret));
      await submitAndWait(other, "Verify");
      await expect(other.getByText("That code is not valid")).toBeVisible();
      await expectNoViolations(other, `code step with an error (${theme})`);
      await context.close();
    });
  });
}
