import AxeBuilder from "@axe-core/playwright";
import { expect, publishedPosts, test, useStoredTheme } from "./site-fixtures.ts";

const POST_TITLE = "SQLite in Production Is Fine, Actually";

const POST_PAGE = "the post page";
const pages = [
  "/",
  "/blog",
  "/search?q=sqlite",
  "/search?q=no-such-words-anywhere",
  POST_PAGE,
  "/category/development",
  "/category/development?view=list",
  "/categories",
  "/about",
  "/privacy",
  "/terms",
  "/no-such-page",
  "/blog/NoSuchPost1234",
  "/category/cooking",
];

async function expectNoViolations(page: import("@playwright/test").Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(summary, label).toEqual([]);
}

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await useStoredTheme(page, theme);
    });

    for (const path of pages) {
      test(`${path} passes axe`, async ({ page, site }) => {
        await page.goto(path === POST_PAGE ? `/blog/${site.postId(POST_TITLE)}` : path);
        await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
        await expectNoViolations(page, `${path} (${theme})`);
      });
    }

    test("the comment form with its errors passes axe", async ({ page, site }) => {
      await page.goto(`/blog/${site.postId(publishedPosts.at(-1)!.title)}`);
      await page.getByRole("button", { name: "Post Comment" }).click();
      await expect(page.getByText("Please enter your name")).toBeVisible();
      await expectNoViolations(page, `comment errors (${theme})`);
    });

    test.describe("on a phone with the menu open", () => {
      test.use({ viewport: { width: 360, height: 740 } });

      test("passes axe", async ({ page }) => {
        await page.goto("/blog");
        await page.getByText("Menu", { exact: true }).click();
        await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
        await expectNoViolations(page, `mobile menu (${theme})`);
      });
    });
  });
}
