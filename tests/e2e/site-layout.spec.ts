import { E2E_ABOUT_URL, E2E_SOURCE_URL } from "../../playwright.config.ts";
import { expect, test, useStoredTheme } from "./site-fixtures.ts";

test.describe("navigation for visitors", () => {
  test("links Home, Categories and the external About page, and nothing for admins", async ({ page }) => {
    await page.goto("/blog");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    await expect(nav.getByRole("link", { name: "Categories" })).toHaveAttribute("href", "/categories");
    const about = nav.getByRole("link", { name: "About" });
    await expect(about).toHaveAttribute("href", E2E_ABOUT_URL);
    await expect(about).toHaveAttribute("rel", /noopener/);
    await expect(about).not.toHaveAttribute("target", /./);
    await expect(page.getByRole("link", { name: "Admin Dashboard" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Logout" })).toHaveCount(0);
  });

  test("searches from the header", async ({ page }) => {
    await page.goto("/about");
    const search = page.getByRole("search", { name: "Search the blog" });
    await search.getByRole("searchbox").fill("caddy");
    await search.getByRole("searchbox").press("Enter");
    await expect(page).toHaveURL(/\/search\?q=caddy$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search Results");
  });

  test("has a footer with the four categories, the site pages and the source code", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    for (const category of ["development", "technology", "design", "business"]) {
      await expect(footer.getByRole("link", { name: new RegExp(`^${category}$`, "i") })).toHaveAttribute(
        "href",
        `/category/${category}`,
      );
    }
    await expect(footer.getByRole("link", { name: "About" })).toHaveAttribute("href", "/about");
    await expect(footer.getByRole("link", { name: "Contact" })).toHaveAttribute("href", "/about#contact");
    await expect(footer.getByRole("link", { name: "Privacy" })).toHaveAttribute("href", "/privacy");
    await expect(footer.getByRole("link", { name: "Terms" })).toHaveAttribute("href", "/terms");
    await expect(footer.getByRole("link", { name: "Source code" })).toHaveAttribute("href", E2E_SOURCE_URL);
  });

  test("offers a skip link to the main content first", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
  });
});

test("shows Admin Dashboard and Logout to a signed-in admin", async ({ page, context, site }) => {
  await context.addCookies([await site.adminSessionCookie()]);
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Admin Dashboard" })).toHaveAttribute("href", "/admin");
  const logout = nav.getByRole("button", { name: "Logout" });
  await expect(logout).toBeVisible();
  const form = nav.locator("form").filter({ has: page.getByRole("button", { name: "Logout" }) });
  await expect(form).toHaveAttribute("method", "post");
  await expect(form).toHaveAttribute("action", "/logout");
});

const pages = ["/", "/blog", "/search?q=sqlite", "/categories", "/category/design", "/about", "/privacy", "/terms"];

test("every page has landmarks, one h1, a title and a description", async ({ page }) => {
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole("banner"), path).toHaveCount(1);
    await expect(page.getByRole("main"), path).toHaveCount(1);
    await expect(page.getByRole("contentinfo"), path).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveCount(1);
    await expect(page, path).toHaveTitle(/\S+ \| Inkwell$/);
    await expect(page.locator('meta[name="description"]'), path).toHaveAttribute("content", /.{20,}/);
  }
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("collapses the navigation into a menu", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Categories", exact: true })).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Categories" })).toBeVisible();
    await nav.getByRole("link", { name: "Categories" }).click();
    await expect(page).toHaveURL(/\/categories$/);
    await expect(page.getByRole("link", { name: "Home", exact: true })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test("Escape closes the open menu and returns focus to it", async ({ page }) => {
    await page.goto("/blog");
    const menuButton = page.getByText("Menu", { exact: true });
    await menuButton.click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Categories" }).focus();
    await page.keyboard.press("Escape");
    await expect(nav.getByRole("link", { name: "Categories" })).toBeHidden();
    await expect(menuButton).toBeFocused();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the menu still opens and searches", async ({ page }) => {
      await page.goto("/");
      await page.getByText("Menu", { exact: true }).click();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" })).toBeVisible();
      const search = page.getByRole("search", { name: "Search the blog" });
      await search.getByRole("searchbox").fill("typography");
      await search.getByRole("searchbox").press("Enter");
      await expect(page).toHaveURL(/\/search\?q=typography$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search Results");
    });
  });
});

for (const theme of ["light", "dark"] as const) {
  test(`pages hydrate without console errors in the ${theme} theme`, async ({ page, site }) => {
    await useStoredTheme(page, theme);
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    for (const path of [...pages, `/blog/${site.postId("Typography for Long-Form Reading")}`]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute(
        "aria-pressed",
        String(theme === "dark"),
      );
    }
    expect(errors).toEqual([]);
  });
}

test("readers' pages load no application JavaScript; sign-in, which needs it, does", async ({ page, site }) => {
  const scriptsLoaded = async (path: string) => {
    const loaded: string[] = [];
    const record = (request: import("@playwright/test").Request) => {
      if (request.resourceType() === "script") loaded.push(request.url());
    };
    page.on("request", record);
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    page.off("request", record);
    return loaded;
  };
  for (const path of [...pages, "/search?q=caddy", `/blog/${site.postId("Typography for Long-Form Reading")}`]) {
    expect(await scriptsLoaded(path), path).toEqual([]);
    await expect(page.locator('link[rel="modulepreload"]'), path).toHaveCount(0);
  }
  expect((await scriptsLoaded("/login")).length).toBeGreaterThan(0);
});

test("readers' pages carry a smaller stylesheet than sign-in's, with a rule for every class they use", async ({
  page,
  site,
}) => {
  await page.goto("/login");
  const everything = (await page.locator("head > style").textContent()) ?? "";
  const post = `/blog/${site.postId("Typography for Long-Form Reading")}`;
  for (const path of [...pages, "/search?q=no-such-words", post, "/no/such/page"]) {
    await page.goto(path);
    const { readers, missing } = await page.evaluate((everythingText) => {
      const unescape = (name: string) =>
        name
          .replace(/\\([0-9a-fA-F]{1,6}) ?/g, (_all, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
          .replace(/\\(.)/g, "$1");
      const classesStyledBy = (sheet: CSSStyleSheet) => {
        const styled = new Set<string>();
        const visit = (rules: CSSRuleList) => {
          for (const rule of rules) {
            if (rule instanceof CSSStyleRule) {
              for (const match of rule.selectorText.matchAll(/\.((?:\\[0-9a-fA-F]{1,6} ?|\\.|[\w-])+)/g)) {
                styled.add(unescape(match[1]!));
              }
            }
            if ("cssRules" in rule) visit(rule.cssRules as CSSRuleList);
          }
        };
        visit(sheet.cssRules);
        return styled;
      };
      const whole = new CSSStyleSheet();
      whole.replaceSync(everythingText);
      const styledByEverything = classesStyledBy(whole);
      const inline = document.querySelector("head > style")!;
      const styledHere = classesStyledBy((inline as HTMLStyleElement).sheet!);
      const used = new Set([...document.querySelectorAll("[class]")].flatMap((element) => [...element.classList]));
      return {
        readers: inline.textContent!.length,
        missing: [...used].filter((name) => styledByEverything.has(name) && !styledHere.has(name)),
      };
    }, everything);
    expect(missing, path).toEqual([]);
    expect(readers, path).toBeLessThan(everything.length * 0.85);
  }
});
