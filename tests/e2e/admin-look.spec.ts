import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { signIn } from "./admin-support";

// The tests change the blog's one look, so they take turns and put it back.
test.describe.configure({ mode: "serial" });

const ACCENT = "#1d6b3a";

async function openSettings(page: Page) {
  // Signing in through the API shares its cookie with the page's browser context.
  await signIn(page.request);
  await page.goto("/admin/settings");
  await expect(page.getByRole("heading", { name: "Settings", exact: true })).toBeVisible();
}

async function saveLook(page: Page, accent: string, typeface: string) {
  await openSettings(page);
  await page.getByLabel("Accent colour", { exact: true }).fill(accent);
  await page.getByLabel("Body typeface").selectOption(typeface);
  await page.getByRole("button", { name: "Save settings" }).click();
}

/** A reader's view of the home page: no session, so the page cache answers. */
async function readerHome(browser: Browser, baseURL: string, theme: "light" | "dark" = "light") {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  // The page script reads the stored choice before first paint (app/lib/page-script.ts).
  await page.addInitScript((value) => localStorage.setItem("theme", value), theme);
  await page.goto("/");
  const look = await page.evaluate(() => ({
    accent: getComputedStyle(document.documentElement).getPropertyValue("--color-indigo-700").trim(),
    font: getComputedStyle(document.body).fontFamily,
  }));
  return { context, page, look };
}

test.afterAll(async ({ browser, baseURL }) => {
  const page = await browser.newPage({ baseURL });
  await saveLook(page, "", "sans");
  await page.close();
});

test("a reader's cached page picks up a new accent and typeface at once", async ({ page, browser, baseURL }) => {
  const before = await readerHome(browser, baseURL!);
  // Read twice: the second answer comes from the page cache.
  await before.page.reload();
  expect(before.look.accent).not.toBe(ACCENT);
  expect(before.look.font).toMatch(/^ui-sans-serif/);
  await before.context.close();

  await saveLook(page, ACCENT, "serif");
  await expect(page.getByText("Settings saved. The site shows them now.")).toBeVisible();

  for (const theme of ["light", "dark"] as const) {
    const after = await readerHome(browser, baseURL!, theme);
    expect(after.look.accent).toBe(ACCENT);
    expect(after.look.font).toMatch(/^ui-serif/);
    // No style attribute anywhere: the look is custom properties in the inline stylesheet.
    expect(await after.page.locator("[style]").count()).toBe(0);
    const results = await new AxeBuilder({ page: after.page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(results.violations, `${theme} theme`).toEqual([]);
    await after.context.close();
  }
});

test("an accent that fails contrast is refused with its reason", async ({ page }) => {
  await saveLook(page, "#ffd400", "sans");
  await expect(page.getByText(/too light to read on white \(1\.\d : 1; it needs 4\.5 : 1\)/)).toBeVisible();
  await expect(page.getByLabel("Accent colour", { exact: true })).toHaveAttribute("aria-invalid", "true");
});

test("a logo and a site icon uploaded without JavaScript reach every page", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await openSettings(page);
  const icon = await sharp({ create: { width: 600, height: 600, channels: 3, background: ACCENT } })
    .png()
    .toBuffer();
  await page
    .getByLabel("Site icon", { exact: true })
    .setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: icon });
  await page.getByRole("button", { name: "Upload site icon" }).click();
  await expect(page.getByText("Site icon saved. Browsers pick it up within the hour.")).toBeVisible();

  const reader = await browser.newContext({ baseURL });
  const home = await reader.newPage();
  await home.goto("/");
  await expect(home.locator('head link[rel="apple-touch-icon"]')).toHaveAttribute("href", /^\/apple-touch-icon\.png/);
  const touch = await home.request.get("/apple-touch-icon.png");
  expect(touch.headers()["content-type"]).toBe("image/png");
  expect(await sharp(await touch.body()).metadata()).toMatchObject({ width: 180, height: 180 });

  const logo = await sharp({ create: { width: 400, height: 100, channels: 4, background: ACCENT } })
    .png()
    .toBuffer();
  await page
    .getByLabel("Logo", { exact: true })
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByText("Logo saved. The site shows it now.")).toBeVisible();
  await home.goto("/");
  // Beside the title, which names the home link: the image itself is decoration.
  const homeLink = home.getByRole("banner").getByRole("link").first();
  await expect(homeLink.locator("img")).toHaveAttribute("src", /^\/media\/[0-9a-f]{64}\/384\.png$/);
  await expect(homeLink.locator("img")).toHaveAttribute("alt", "");
  await expect(homeLink).toHaveAccessibleName(/\S/);
  await page.getByRole("button", { name: "Remove logo" }).click();
  await expect(page.getByText("Logo removed.")).toBeVisible();

  await page.getByRole("button", { name: "Remove site icon" }).click();
  await expect(page.getByText("Site icon removed.")).toBeVisible();
  await home.goto("/");
  await expect(home.locator('head link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
  await reader.close();
  await context.close();
});
