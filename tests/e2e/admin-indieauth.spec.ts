import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { signIn, uniqueSuffix } from "./admin-support";

function signInRequest() {
  // Each test is its own app, so Settings → Apps shows one row for it.
  const CLIENT = `https://writer-app-${uniqueSuffix()}.example/`;
  const REDIRECT = `${CLIENT}callback`;
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id: CLIENT,
    redirect_uri: REDIRECT,
    state: "state-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "create media",
    me: E2E_ADMIN_URL,
  });
  return { verifier, path: `/indieauth/auth?${query}`, CLIENT, REDIRECT };
}

for (const javaScriptEnabled of [true, false]) {
  test(`the writer lets an app in with IndieAuth, which then posts with its token (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: E2E_ADMIN_URL, javaScriptEnabled });
    await signIn(context.request);
    const page = await context.newPage();
    // The app's own page is not on this machine: its callback address is answered here.
    const { verifier, path, CLIENT, REDIRECT } = signInRequest();
    let callback: URL | undefined;
    await page.route(`${REDIRECT}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/plain", body: "The app has its code" });
    });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: "Let an app in" })).toBeVisible();
    await expect(page.getByTestId("indieauth-client")).toHaveText(CLIENT);
    await expect(page.getByTestId("indieauth-redirect")).toHaveText(REDIRECT);
    await expect(page.getByRole("checkbox", { name: /create and publish posts/ })).toBeChecked();
    await page.getByRole("checkbox", { name: /upload images/ }).uncheck();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${REDIRECT}**`);
    expect(callback?.searchParams.get("state")).toBe("state-123");

    const token = await context.request.post("/indieauth/token", {
      form: {
        grant_type: "authorization_code",
        code: callback!.searchParams.get("code")!,
        client_id: CLIENT,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      },
    });
    const granted = (await token.json()) as { access_token: string; scope: string };
    expect(granted.scope).toBe("create");
    const posted = await context.request.post("/micropub", {
      headers: { Authorization: `Bearer ${granted.access_token}` },
      form: { content: "Posted from an app signed in with IndieAuth", "post-status": "draft" },
    });
    expect(posted.status()).toBe(201);

    await page.goto("/admin/settings/apps");
    const row = page.getByRole("listitem").filter({ hasText: CLIENT });
    await expect(row).toContainText("may create");
    await row.getByRole("button", { name: `Sign out ${CLIENT}` }).click();
    await expect(page.getByText("App signed out. It is refused from its next request.")).toBeVisible();
    const refused = await context.request.get("/micropub?q=config", {
      headers: { Authorization: `Bearer ${granted.access_token}` },
    });
    expect(refused.status()).toBe(401);
    await context.close();
  });
}

test("a signed-out writer is asked to sign in first, and Deny tells the app so", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: E2E_ADMIN_URL });
  const page = await context.newPage();
  const { path, REDIRECT } = signInRequest();
  await page.goto(path);
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await signIn(context.request);
  let callback: URL | undefined;
  await page.route(`${REDIRECT}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "denied" });
  });
  await page.goto(path);
  await page.getByRole("button", { name: "Deny" }).click();
  await page.waitForURL(`${REDIRECT}**`);
  expect(callback?.searchParams.get("error")).toBe("access_denied");
  await context.close();
});
