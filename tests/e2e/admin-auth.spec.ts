import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { SAME_ORIGIN, signIn, signInThroughForm, submitAndWait, uniqueSuffix } from "./admin-support";

test("an anonymous visitor is sent to sign in, then lands on the page first asked for", async ({ page }) => {
  await page.goto("/admin/posts?q=design");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fposts%3Fq%3Ddesign$/);
  await expect(page).toHaveTitle("Admin Login");
  await signInThroughForm(page);
  await expect(page).toHaveURL(/\/admin\/posts\?q=design$/);
  await expect(page.getByRole("searchbox")).toHaveValue("design");
});

test("a signed-in admin who visits /login goes to /admin", async ({ page }) => {
  await signIn(page.request);
  await page.goto("/login");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("sign-in explains what went wrong, and never echoes the password", async ({ page }) => {
  await page.goto("/login");
  const alert = page.getByRole("alert");

  await submitAndWait(page, "Sign in");
  await expect(alert).toHaveText("Please enter both email and password");

  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill("   ");
  await submitAndWait(page, "Sign in");
  await expect(alert).toHaveText("Please enter both email and password");

  await page.getByLabel("Email").fill(`nobody-${uniqueSuffix()}@example.com`);
  await page.getByLabel("Password").fill("whatever it is");
  await submitAndWait(page, "Sign in");
  await expect(alert).toHaveText("Invalid email or password");
  await expect(page.getByLabel("Password")).toHaveValue("");

  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill("not the password");
  await submitAndWait(page, "Sign in");
  await expect(alert).toHaveText("Invalid email or password");
  await expect(page.getByLabel("Email")).toHaveValue(E2E_ADMIN.email);
  expect(await page.content()).not.toContain("not the password");

  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

test("sign-in works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please enter both email and password");
  await signInThroughForm(page);
  await expect(page).toHaveURL(/\/admin$/);
  await context.close();
});

test("signing out ends the session on the server; a GET to /logout does not", async ({ page, playwright }) => {
  await page.goto("/login");
  await signInThroughForm(page);
  await expect(page).toHaveURL(/\/admin$/);
  const sessionCookie = (await page.context().cookies()).find((cookie) => cookie.name === "blog_session");
  expect(sessionCookie?.httpOnly).toBe(true);
  expect(sessionCookie?.sameSite).toBe("Lax");

  await page.goto("/logout");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin$/);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.context().cookies()).some((cookie) => cookie.name === "blog_session")).toBe(false);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin$/);

  // The old cookie, replayed, opens nothing: the session is gone from the database.
  const replay = await playwright.request.newContext({
    baseURL: new URL(page.url()).origin,
    extraHTTPHeaders: { Cookie: `blog_session=${sessionCookie!.value}` },
  });
  const response = await replay.get("/admin", { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers().location).toMatch(/^\/login/);
  await replay.dispose();
});

test("repeated failures for one email are slowed, then refused for a while", async ({ page }) => {
  // A dedicated email: the lock must not reach the accounts other tests sign in with.
  const email = `throttled-${uniqueSuffix()}@example.com`;
  await page.goto("/login");
  const startedAt = Date.now();
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(`guess number ${attempt}`);
    await submitAndWait(page, "Sign in");
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  }
  // The third and fourth failures wait one and two seconds before answering.
  expect(Date.now() - startedAt).toBeGreaterThanOrEqual(3000);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("guess number 5");
  await submitAndWait(page, "Sign in");
  await expect(page.getByRole("alert")).toHaveText("Too many failed sign-in attempts. Please try again in 15 minutes.");

  const refused = await page.request.post("/login", {
    form: { email, password: "guess number 6" },
    headers: SAME_ORIGIN,
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(800);
});
