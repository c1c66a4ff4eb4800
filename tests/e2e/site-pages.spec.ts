import AxeBuilder from "@axe-core/playwright";
import { type ComponentType, createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { OriginalAbout } from "../../app/components/site/built-in-pages/about.tsx";
import { OriginalPrivacy } from "../../app/components/site/built-in-pages/privacy.tsx";
import { OriginalTerms } from "../../app/components/site/built-in-pages/terms.tsx";
import { E2E_ADMIN_URL, E2E_SITE_URL } from "../../playwright.config.ts";
import { SAME_ORIGIN, signIn, uniqueSuffix, withDatabase } from "./admin-support.ts";
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

// Made on the admin server, whose content tests may change, so the site server's readers' tests never see it.
test("a page made with the admin form is served at its address, in the sitemap, in no list or feed, and a save shows at once", async ({
  playwright,
  browser,
}) => {
  const writer = await playwright.request.newContext({ baseURL: E2E_ADMIN_URL });
  await signIn(writer);
  const suffix = uniqueSuffix();
  const title = `Quillwort Almanac ${suffix}`;
  const create = async (slug: string, published: boolean) => {
    const form = {
      title,
      slug,
      content: `Quillwort ${suffix} grows by the *pond*, under water for most of the year.`,
      format: "markdown",
      description: "",
      ...(published ? { published: "on" } : {}),
    };
    const response = await writer.post("/admin/pages/new", { form, headers: SAME_ORIGIN, maxRedirects: 0 });
    expect(response.status(), `${slug} saved`).toBe(302);
    expect(new URL(response.headers().location ?? "", E2E_ADMIN_URL).pathname).toBe("/admin/pages");
  };
  await create(`quillwort-${suffix}`, true);
  await create(`quillwort-draft-${suffix}`, false);

  const reader = await browser.newContext({ baseURL: E2E_ADMIN_URL });
  const page = await reader.newPage();
  const shown = await page.goto(`/quillwort-${suffix}`);
  expect(shown?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.locator("main .post-content em")).toHaveText("pond");
  await expect(page).toHaveTitle(`${title} | Inkwell`);
  const description = `Quillwort ${suffix} grows by the pond, under water for most of the year.`;
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", description);
  const address = `${E2E_ADMIN_URL}/quillwort-${suffix}`;
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", address);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", address);
  await expect(page.locator('script[type="module"], script[src], link[rel="modulepreload"]')).toHaveCount(0);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);

  const draft = await page.goto(`/quillwort-draft-${suffix}`);
  expect(draft?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");

  const sitemap = await (await reader.request.get("/sitemaps/pages.xml")).text();
  expect(sitemap).toContain(`<loc>${address}</loc><lastmod>`);
  expect(sitemap).not.toContain(`quillwort-draft-${suffix}`);
  for (const path of ["/", "/blog", `/search?q=${suffix}`, "/categories", "/rss.xml", "/atom.xml", "/feed.json"]) {
    const response = await reader.request.get(path);
    expect(response.status(), path).toBe(200);
    // A search for the page's words names only the query, never the page.
    const body = await response.text();
    expect(body, path).not.toContain(`quillwort-${suffix}`);
    expect(body, path).not.toContain(title);
  }

  // Readers were served the stored copy; the writer's next save replaces it at once.
  const id = withDatabase(
    (db) => (db.prepare("select id from pages where slug = ?").get(`quillwort-${suffix}`) as { id: string }).id,
  );
  const form = {
    title,
    slug: `quillwort-${suffix}`,
    content: "Quillwort, *revised*.",
    format: "markdown",
    description: "A revised almanac.",
    published: "on",
    showLastUpdated: "on",
  };
  const saved = await writer.post(`/admin/pages/edit/${id}`, { form, headers: SAME_ORIGIN, maxRedirects: 0 });
  expect(saved.status()).toBe(302);
  await page.goto(`/quillwort-${suffix}`);
  await expect(page.locator("main .post-content")).toHaveText("Quillwort, revised.");
  await expect(page.getByText(/^Last updated:/)).toBeVisible();
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", "A revised almanac.");
  await writer.dispose();
  await reader.close();
});
