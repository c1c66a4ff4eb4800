import AxeBuilder from "@axe-core/playwright";
import { type ComponentType, createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { OriginalAbout } from "../../app/components/site/built-in-pages/about.tsx";
import { OriginalPrivacy } from "../../app/components/site/built-in-pages/privacy.tsx";
import { OriginalTerms } from "../../app/components/site/built-in-pages/terms.tsx";
import { E2E_SITE_URL } from "../../playwright.config.ts";
import { expect, test, useStoredTheme } from "./site-fixtures.ts";

/** About, Privacy and Terms as they shipped, with the head each had before pages existed. */
const BUILT_IN = [
  {
    path: "/about",
    title: "About | Inkwell",
    description: "Who writes Inkwell, and how to get in touch.",
    original: () => createElement(OriginalAbout),
  },
  {
    path: "/privacy",
    title: "Privacy Policy | Inkwell",
    description: "What Inkwell stores about visitors, and why.",
    original: () => createElement(OriginalPrivacy, { lastUpdated: new Date().toISOString() }),
  },
  {
    path: "/terms",
    title: "Terms of Service | Inkwell",
    description: "The rules for reading and commenting on Inkwell.",
    original: () => createElement(OriginalTerms, { lastUpdated: new Date().toISOString() }),
  },
];

/** The original design's markup, rendered on its own as the server renders a route's component. */
function renderOriginal(element: () => React.ReactElement): string {
  const Stub = createRoutesStub([{ id: "page", path: "*", Component: element as ComponentType, loader: () => null }]);
  return renderToString(createElement(Stub, { initialEntries: ["/"], hydrationData: { loaderData: { page: null } } }));
}

/** Markup as the browser reads it, with the instant of "Last updated" (not its day) left out. */
const withoutInstant = (html: string) => html.replace(/datetime="[^"]*"/gi, 'datetime=""');

test.describe("the built-in pages, never edited", () => {
  test.use({ javaScriptEnabled: false });

  for (const { path, title, description, original } of BUILT_IN) {
    test(`${path} shows its original design and head, with no application JavaScript`, async ({ page }) => {
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(request.url());
      });
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);

      const shown = await page.locator("main").innerHTML();
      const expected = await page.evaluate((html) => {
        const template = document.createElement("template");
        template.innerHTML = html;
        return template.innerHTML;
      }, renderOriginal(original));
      expect(withoutInstant(shown)).toBe(withoutInstant(expected));

      await expect(page).toHaveTitle(title);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", description);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${E2E_SITE_URL}${path}`);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${E2E_SITE_URL}${path}`);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", title.split(" | ")[0]!);
      await expect(page.locator('script[type="module"], script[src], link[rel="modulepreload"]')).toHaveCount(0);
      expect(scripts).toEqual([]);
    });
  }
});

test("an address no page has, or that no page could have, is the site's 404 page", async ({ page }) => {
  for (const path of ["/no-page-by-this-name", "/%C3%BCber", "/About", `/${"a".repeat(81)}`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("Page Not Found");
    await expect(page, path).toHaveTitle("Page Not Found | Inkwell");
    await expect(page.getByRole("link", { name: "Go Back" }), path).toBeVisible();
  }
});

for (const theme of ["light", "dark"] as const) {
  test(`the built-in pages pass axe in the ${theme} theme`, async ({ page }) => {
    await useStoredTheme(page, theme);
    for (const { path } of BUILT_IN) {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).analyze();
      const summary = results.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
      expect(summary, `${path} (${theme})`).toEqual([]);
    }
  });
}
