import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { SAME_ORIGIN, signIn, uniqueSuffix, withDatabase } from "./admin-support";

// The tests change the blog's one pair of menus, so they take turns and put the defaults back.
test.describe.configure({ mode: "serial" });

const DEFAULT_HEADER = ["Home", "Categories", "About"];

/**
 * The header links a reader gets for `/`, as [label, href], read twice so the second answer is
 * the page cache's (a cacheable page says "public"); what changed in the menus must show at once.
 */
async function cachedHeader(baseURL: string): Promise<[string, string][]> {
  await fetch(`${baseURL}/`);
  const response = await fetch(`${baseURL}/`);
  expect(response.headers.get("cache-control"), "the home page is cacheable").toContain("public");
  const html = await response.text();
  const nav = /<nav aria-label="Main"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  return [...nav.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]+)<\/a>/g)].map((match) => [match[2]!, match[1]!]);
}

async function cachedHeaderLinks(baseURL: string): Promise<string[]> {
  return (await cachedHeader(baseURL)).map(([label]) => label);
}

async function openNavigation(page: Page) {
  // Signing in through the API shares its cookie with the page's browser context.
  await signIn(page.request);
  await page.goto("/admin/navigation");
  await expect(page.getByRole("heading", { name: "Navigation", level: 1 })).toBeVisible();
}

function headerPanel(page: Page): Locator {
  return page.getByRole("region", { name: "Header" });
}

function headerRows(page: Page): Locator {
  return headerPanel(page).getByRole("list", { name: "Header links" }).getByRole("listitem");
}

async function resetMenus(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  await signIn(context.request);
  const reset = await context.request.post("/admin/navigation/change", {
    form: { intent: "reset" },
    headers: SAME_ORIGIN,
    maxRedirects: 0,
  });
  expect(reset.status()).toBe(302);
  await context.close();
}

test.afterEach(async ({ browser, baseURL }) => {
  await resetMenus(browser, baseURL!);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a link added, moved, renamed and removed with the buttons shows in a reader's cached page at once", async ({
    page,
    baseURL,
  }) => {
    expect(await cachedHeaderLinks(baseURL!)).toEqual(DEFAULT_HEADER);
    const label = `Reading ${uniqueSuffix()}`;

    await openNavigation(page);
    const add = headerPanel(page).getByRole("form", { name: "Add link" });
    await add.getByLabel("Label", { exact: true }).fill(label);
    await add.getByLabel("Links to").selectOption({ label: "Another address (URL)" });
    await add.getByLabel("URL", { exact: true }).fill("javascript:alert(1)");
    await add.getByRole("button", { name: "Add link" }).click();
    await expect(page.getByText("The address must start with http:// or https://")).toBeVisible();
    expect(await cachedHeaderLinks(baseURL!)).toEqual(DEFAULT_HEADER);

    await add.getByLabel("URL", { exact: true }).fill("https://reading.example/list");
    await add.getByRole("button", { name: "Add link" }).click();
    await expect(page).toHaveURL(/\/admin\/navigation$/);
    await expect(page.getByText("Navigation saved. The site shows it now.")).toBeVisible();
    await expect(headerRows(page)).toHaveCount(4);
    expect(await cachedHeaderLinks(baseURL!)).toEqual([...DEFAULT_HEADER, label]);

    await headerRows(page)
      .filter({ hasText: label })
      .getByRole("button", { name: `Move up ${label}` })
      .click();
    await expect(headerRows(page).nth(2)).toContainText(label);
    expect(await cachedHeaderLinks(baseURL!)).toEqual(["Home", "Categories", label, "About"]);

    const renamed = `${label} list`;
    const row = headerRows(page).filter({ hasText: label });
    await row.getByText(`Rename ${label}`).click();
    await row.getByLabel(`New label for ${label}`).fill(renamed);
    await row.getByRole("button", { name: "Save label" }).click();
    await expect(headerRows(page).nth(2)).toContainText(renamed);
    expect(await cachedHeaderLinks(baseURL!)).toEqual(["Home", "Categories", renamed, "About"]);

    await headerRows(page).filter({ hasText: "Home" }).getByRole("button", { name: "Remove Home" }).click();
    await expect(headerRows(page)).toHaveCount(3);
    expect(await cachedHeaderLinks(baseURL!)).toEqual(["Categories", renamed, "About"]);

    await page.getByRole("button", { name: "Reset to defaults" }).click();
    await expect(headerRows(page)).toHaveCount(3);
    expect(await cachedHeaderLinks(baseURL!)).toEqual(DEFAULT_HEADER);
  });

  test("a link to a page follows its new slug, and leaves while it is unpublished, on a reader's cached page at once", async ({
    page,
    baseURL,
  }) => {
    await openNavigation(page);
    const slug = `team-${uniqueSuffix()}`;
    const title = `The team ${slug}`;
    const savePage = async (address: string, pageSlug: string, published: boolean) => {
      const form = { title, slug: pageSlug, content: "Who we are.", format: "markdown" };
      const response = await page.request.post(address, {
        form: published ? { ...form, published: "on" } : form,
        headers: SAME_ORIGIN,
        maxRedirects: 0,
      });
      expect(response.status(), `${address} saves`).toBe(302);
    };
    await savePage("/admin/pages/new", slug, true);
    const { id } = withDatabase((db) => db.prepare("select id from pages where slug = ?").get(slug) as { id: string });

    await page.reload();
    const add = headerPanel(page).getByRole("form", { name: "Add link" });
    await add.getByLabel("Label", { exact: true }).fill("Team");
    await add.getByLabel("Links to").selectOption({ label: "A page" });
    await add.getByLabel("Page", { exact: true }).selectOption({ label: title });
    await add.getByRole("button", { name: "Add link" }).click();
    await expect(headerRows(page).filter({ hasText: "Team" })).toContainText(`Page: ${title} (/${slug})`);
    expect((await cachedHeader(baseURL!)).at(-1)).toEqual(["Team", `/${slug}`]);

    await savePage(`/admin/pages/edit/${id}`, `${slug}-renamed`, true);
    expect((await cachedHeader(baseURL!)).at(-1)).toEqual(["Team", `/${slug}-renamed`]);

    await savePage(`/admin/pages/edit/${id}`, `${slug}-renamed`, false);
    expect(await cachedHeaderLinks(baseURL!)).toEqual(DEFAULT_HEADER);
  });
});

test("with JavaScript, a row dragged onto another's place reorders a reader's cached header at once", async ({
  page,
  baseURL,
}) => {
  expect(await cachedHeaderLinks(baseURL!)).toEqual(DEFAULT_HEADER);
  await openNavigation(page);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(results.violations).toEqual([]);

  await headerRows(page)
    .filter({ hasText: "About" })
    .dragTo(headerRows(page).filter({ hasText: "Home" }));
  await expect(headerRows(page).first()).toContainText("About");
  await expect(headerPanel(page).getByRole("button", { name: "Move up About" })).toBeDisabled();
  expect(await cachedHeaderLinks(baseURL!)).toEqual(["About", "Home", "Categories"]);

  // The buttons stay for keyboards, with JavaScript too.
  await headerPanel(page).getByRole("button", { name: "Move down About" }).click();
  await expect(headerRows(page).nth(1)).toContainText("About");
  expect(await cachedHeaderLinks(baseURL!)).toEqual(["Home", "About", "Categories"]);
});
