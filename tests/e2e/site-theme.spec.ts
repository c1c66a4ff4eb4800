import { expect, test, useStoredTheme } from "./site-fixtures.ts";

const html = (page: import("@playwright/test").Page) => page.locator("html");
const storedTheme = (page: import("@playwright/test").Page) => page.evaluate(() => localStorage.getItem("theme"));

test.use({ colorScheme: "light" });

test("the toggle switches the theme, remembers it and is keyboard operable", async ({ page }) => {
  await page.goto("/");
  const toggle = page.getByRole("button", { name: "Dark theme" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(html(page)).not.toHaveClass(/\bdark\b/);

  await toggle.click();
  await expect(html(page)).toHaveClass(/\bdark\b/);
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  expect(await storedTheme(page)).toBe("dark");

  await page.reload();
  await expect(html(page)).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute("aria-pressed", "true");

  await page.getByRole("button", { name: "Dark theme" }).focus();
  await page.keyboard.press("Enter");
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  expect(await storedTheme(page)).toBe("light");
  await page.keyboard.press("Space");
  await expect(html(page)).toHaveClass(/\bdark\b/);
});

test("a stored dark theme is applied before any page script runs, so nothing flashes", async ({ page }) => {
  await useStoredTheme(page, "dark");
  // With the app's scripts blocked, only the inline script in <head> can have set the class.
  await page.route("**/assets/**/*.js", (route) => route.abort());
  await page.goto("/blog");
  await expect(html(page)).toHaveClass(/\bdark\b/);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe("rgb(255, 255, 255)");
});

test("without a stored choice the system preference applies, and is followed live", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(html(page)).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute("aria-pressed", "true");
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute("aria-pressed", "false");
  expect(await storedTheme(page)).toBeNull();
});

test("a stored choice wins over the system preference", async ({ page }) => {
  await useStoredTheme(page, "light");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: "light" });
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
});
