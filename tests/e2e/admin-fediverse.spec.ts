import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { signIn, uniqueSuffix, withDatabase } from "./admin-support";
import { useStoredTheme } from "./site-fixtures";

const HOST = new URL(E2E_ADMIN_URL).host;

// The tests change the blog's one handle and follower list, so they take turns.
test.describe.configure({ mode: "serial" });

/** A follower as an inbox listener would have recorded it, straight into the admin server's database. */
function insertFollower(state: "accepted" | "pending"): { id: string; handle: string } {
  const name = `reader${uniqueSuffix()}`;
  const id = `e2e_${name}`;
  withDatabase((db) =>
    db
      .prepare(
        `insert into fediverse_followers (id, actor_url, handle, server, inbox_url, shared_inbox_url,
           follow_activity_id, state, created_at) values (?, ?, ?, ?, ?, null, ?, ?, ?)`,
      )
      .run(
        id,
        `https://remote.invalid/users/${name}`,
        `@${name}@remote.invalid`,
        "remote.invalid",
        `https://remote.invalid/users/${name}/inbox`,
        `https://remote.invalid/follows/${name}`,
        state,
        new Date().toISOString(),
      ),
  );
  return { id, handle: `@${name}@remote.invalid` };
}

function followerState(id: string): string | undefined {
  return withDatabase(
    (db) =>
      (db.prepare("select state from fediverse_followers where id = ?").get(id) as { state: string } | undefined)
        ?.state,
  );
}

async function saveSettings(
  page: Page,
  { handle, byHand, blocked }: { handle: string; byHand: boolean; blocked: string },
) {
  const settings = page.getByRole("region", { name: "Settings" });
  await settings.getByLabel("Handle").fill(handle);
  await settings.getByLabel("Approve follow requests by hand").setChecked(byHand);
  await settings.getByLabel("Blocked servers and accounts").fill(blocked);
  await settings.getByRole("button", { name: "Save fediverse settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Fediverse settings saved." })).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signIn(page.request);
});

test("the owner shares the handle, copies it, and renames it; readers' footers follow", async ({
  page,
  context,
  request,
}) => {
  // An anonymous reader's home page, which the page cache now holds.
  expect(await (await request.get("/")).text()).toContain(`@blog@${HOST}`);

  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Fediverse" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fediverse" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "The blog's handle" })).toHaveValue(`@blog@${HOST}`);

  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_ADMIN_URL });
  await page.getByRole("button", { name: "Copy the handle" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Handle copied." })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`@blog@${HOST}`);

  const settings = page.getByRole("region", { name: "Settings" });
  await settings.getByLabel("Handle").fill("my blog");
  await settings.getByRole("button", { name: "Save fediverse settings" }).click();
  await expect(settings.getByText("The handle must be 1 to 30 letters or digits")).toBeVisible();
  await expect(settings.getByLabel("Handle")).toBeFocused();

  await saveSettings(page, { handle: "inkwell", byHand: false, blocked: "" });
  await expect(page.getByRole("textbox", { name: "The blog's handle" })).toHaveValue(`@inkwell@${HOST}`);
  expect(await (await request.get("/")).text()).toContain(`@inkwell@${HOST}`);

  await saveSettings(page, { handle: "blog", byHand: false, blocked: "" });
  expect(await (await request.get("/")).text()).toContain(`@blog@${HOST}`);
});

test("the owner approves and rejects follow requests and removes a follower", async ({ page }) => {
  const waiting = insertFollower("pending");
  const unwanted = insertFollower("pending");
  const follower = insertFollower("accepted");
  await page.goto("/admin/fediverse");
  await saveSettings(page, { handle: "blog", byHand: true, blocked: "" });

  const requests = page.getByRole("region", { name: /^Follow requests/ });
  await requests.getByRole("button", { name: `Approve ${waiting.handle}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Follow request approved." })).toBeVisible();
  expect(followerState(waiting.id)).toBe("accepted");
  const followers = page.getByRole("region", { name: /^Followers/ });
  await expect(followers.getByRole("link", { name: new RegExp(waiting.handle) })).toHaveAttribute(
    "href",
    `https://remote.invalid/users/${waiting.handle.split("@")[1]}`,
  );

  await requests.getByRole("button", { name: `Reject ${unwanted.handle}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Follow request rejected." })).toBeVisible();
  expect(followerState(unwanted.id)).toBeUndefined();

  await followers.getByRole("button", { name: `Remove ${follower.handle}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Follower removed." })).toBeVisible();
  expect(followerState(follower.id)).toBeUndefined();
  await expect(followers.getByRole("row", { name: new RegExp(follower.handle) })).toHaveCount(0);

  await saveSettings(page, { handle: "blog", byHand: false, blocked: "" });
});

test("without JavaScript the handle is there to select, and a refused setting comes back with its message", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: E2E_ADMIN_URL, javaScriptEnabled: false });
  await signIn(context.request);
  const page = await context.newPage();
  await page.goto("/admin/fediverse");
  await expect(page.getByRole("textbox", { name: "The blog's handle" })).toHaveValue(`@blog@${HOST}`);
  await expect(page.getByRole("button", { name: "Copy the handle" })).toHaveCount(0);

  const settings = page.getByRole("region", { name: "Settings" });
  await settings.getByLabel("Handle").fill("no spaces");
  await settings.getByLabel("Blocked servers and accounts").fill("spam.example\nnot a server");
  await settings.getByRole("button", { name: "Save fediverse settings" }).click();
  await expect(page).toHaveURL(/\/admin\/fediverse\/settings$/);
  await expect(page.getByText("The handle must be 1 to 30 letters or digits")).toBeVisible();
  await expect(page.getByText(/"not a server"\) is neither a domain/)).toBeVisible();
  await expect(settings.getByLabel("Handle")).toHaveValue("no spaces");
  await context.close();
});

for (const theme of ["light", "dark"] as const) {
  test(`the Fediverse screen passes axe in the ${theme} theme, a refusal showing`, async ({ page }) => {
    await useStoredTheme(page, theme);
    insertFollower("pending");
    insertFollower("accepted");
    await page.goto("/admin/fediverse");
    const settings = page.getByRole("region", { name: "Settings" });
    await settings.getByLabel("Handle").fill("not valid");
    await settings.getByRole("button", { name: "Save fediverse settings" }).click();
    await expect(settings.getByText("The handle must be 1 to 30 letters or digits")).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });
}
