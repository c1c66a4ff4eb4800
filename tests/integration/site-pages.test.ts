import { spawnSync } from "node:child_process";
import { type ComponentType, createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub, type MetaDescriptor, UNSAFE_ErrorResponseImpl } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { CATEGORIES, categoryPath } from "#domain/categories.ts";
import { DatabaseUnavailableError } from "#domain/errors.ts";
import {
  EMPTY_PAGE_FORM,
  type Page,
  type PageFormValues,
  type PageInput,
  pageSchema,
  toPageFormValues,
} from "#domain/page.ts";
import { appContext } from "#server/request-context.ts";
import { loader as feedLoader } from "../../app/routes/resources/feed.ts";
import { loader as sitemapLoader } from "../../app/routes/resources/sitemap.ts";
import { loader as blogLoader } from "../../app/routes/site/blog.tsx";
import { loader as categoriesLoader } from "../../app/routes/site/categories.tsx";
import { loader as categoryLoader } from "../../app/routes/site/category.tsx";
import { loader as homeLoader } from "../../app/routes/site/home.tsx";
import NotFound, { meta as notFoundMeta } from "../../app/routes/site/not-found.tsx";
import SitePage, { ErrorBoundary, loader as pageLoader, meta as pageMeta } from "../../app/routes/site/page.tsx";
import { formatDate } from "../../app/lib/format.ts";
import { countPageSitemaps, readPageSitemap } from "../../server/feeds/index.ts";
import type { Services } from "../../server/composition.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { useFederatedBlog } from "../support/federated-blog.ts";
import { createRouteTestContext, routeArgs, settle } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

const SITE = "http://blog.test";
const WRITER = { label: "Maya", email: "maya@example.com" };
const input = (fields: Partial<PageFormValues | PageInput>): PageInput =>
  pageSchema.parse({ ...EMPTY_PAGE_FORM, ...fields });
/** The root loader's data as a meta function finds it among the matches. */
const ROOT_MATCH = { id: "root", loaderData: { site: { siteUrl: SITE, title: "Inkwell", description: "" } } };
const xmllintMissing = spawnSync("xmllint", ["--version"]).error !== undefined;

type PageData = Exclude<Awaited<ReturnType<typeof pageLoader>>, undefined>;
type AnyArgs = never;

/** A route component rendered on the server, as a reader's browser gets it, from its loader data or error. */
function render(outcome: { loaderData?: unknown; error?: unknown }): string {
  const Stub = createRoutesStub([
    {
      id: "page",
      path: "/:slug",
      Component: SitePage as ComponentType,
      ErrorBoundary: ErrorBoundary as ComponentType,
      loader: () => outcome.loaderData ?? null,
    },
  ]);
  const hydrationData = outcome.error
    ? { errors: { page: outcome.error } }
    : { loaderData: { page: outcome.loaderData } };
  return renderToString(createElement(Stub, { initialEntries: ["/a-page"], hydrationData }));
}

function renderNotFoundRoute(): string {
  const Stub = createRoutesStub([{ id: "page", path: "*", Component: NotFound as ComponentType, loader: () => null }]);
  return renderToString(
    createElement(Stub, { initialEntries: ["/nowhere"], hydrationData: { loaderData: { page: null } } }),
  );
}

function headOf(slug: string, loaderData: PageData | undefined, error?: unknown): MetaDescriptor[] {
  return pageMeta({
    loaderData,
    data: loaderData,
    error,
    params: { slug },
    location: { pathname: `/${slug}`, search: "", hash: "", state: null, key: "default" },
    matches: [ROOT_MATCH],
  } as AnyArgs);
}

const contentOf = (head: MetaDescriptor[], key: string) =>
  (head as Record<string, unknown>[]).find((tag) => tag.property === key || tag.name === key)?.content;

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
}

describe.each(testDialects())("pages at /{slug} on $dialect", (database) => {
  const blog = useTestBlog(database);

  /** GET /{slug} through the route's loader, with the tags it gave the page cache. */
  async function visit(slug: string, services: Partial<Services> = blog.services) {
    const tags: string[] = [];
    const { context, logger } = createRouteTestContext(services);
    context.set(appContext, { ...context.get(appContext), tagPage: (added) => void tags.push(...added) });
    const outcome = await settle(() =>
      pageLoader(routeArgs(new Request(`${SITE}/${encodeURIComponent(slug)}`), context, { slug }) as AnyArgs),
    );
    return { ...outcome, data: outcome.body as PageData, tags, logger };
  }

  const publish = (fields: Partial<PageInput>) =>
    blog.services.pages.createPage(input({ published: true, ...fields }), WRITER);

  async function edit(builtIn: string, fields: Partial<PageFormValues>): Promise<Page> {
    const page = await blog.services.pages.getPublicPage(builtIn);
    return blog.services.pages.updatePage(page.id, input({ ...toPageFormValues(page), ...fields }), WRITER);
  }

  it("shows a published page with its body, title, description, canonical URL and Open Graph tags", async () => {
    const page = await publish({
      title: "Colophon",
      content: "Set in **Source Serif** on a small server.\n\n## Tools\n\nA text editor.",
      description: "How this blog is made.",
    });
    const shown = await visit("colophon");
    expect(shown.status).toBe(200);
    expect(shown.tags).toEqual([`page:${page.id}`]);
    const html = render({ loaderData: shown.data });
    expect(html).toContain("Colophon</h1>");
    expect(html).toContain("<strong>Source Serif</strong>");
    expect(html).not.toContain("Last updated");

    const head = headOf("colophon", shown.data);
    expect(head).toContainEqual({ title: "Colophon | Inkwell" });
    expect(contentOf(head, "description")).toBe("How this blog is made.");
    expect(head).toContainEqual({ tagName: "link", rel: "canonical", href: `${SITE}/colophon` });
    expect(contentOf(head, "og:title")).toBe("Colophon");
    expect(contentOf(head, "og:url")).toBe(`${SITE}/colophon`);
    expect(contentOf(head, "og:description")).toBe("How this blog is made.");
    expect(contentOf(head, "og:type")).toBe("website");
  });

  it("describes a page without a description by its body's opening words, as plain text", async () => {
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(" ");
    await publish({ title: "Uses", content: `What I *use* (and **why**): ${words}` });
    const head = headOf("uses", (await visit("uses")).data);
    const description = String(contentOf(head, "description"));
    expect(description.startsWith("What I use (and why): word0 word1")).toBe(true);
    expect(description.endsWith("…")).toBe(true);
    expect(description.length).toBeLessThanOrEqual(201);
    expect(contentOf(head, "og:description")).toBe(description);
  });

  it("shows the writer's last-updated date when the page asks for it: the date of its last save", async () => {
    const page = await publish({ title: "Policy", content: "Rules.", showLastUpdated: true });
    const shown = await visit("policy");
    expect(shown.data).toMatchObject({ lastUpdated: page.editedAt });
    expect(render({ loaderData: shown.data })).toContain(
      `Last updated: <time dateTime="${page.editedAt}">${formatDate(page.editedAt!, "UTC")}</time>`,
    );
  });

  it("answers a draft, an unknown and a malformed address with the site's 404 page", async () => {
    await blog.services.pages.createPage(input({ title: "Secret plans", content: "Not yet." }), WRITER);
    for (const slug of ["secret-plans", "no-such-page"]) {
      const missing = await visit(slug);
      expect(missing.status, slug).toBe(404);
      expect(JSON.stringify(missing.body)).not.toContain("Not yet");
    }

    const getPublicPage = vi.spyOn(blog.services.pages, "getPublicPage");
    for (const slug of ["About", "über", "a".repeat(81), "about\u0000", "abo\u200Dut", "a b", "a.b"]) {
      expect((await visit(slug)).status, slug).toBe(404);
    }
    expect(getPublicPage).not.toHaveBeenCalled();

    const error = new UNSAFE_ErrorResponseImpl(404, "Not Found", { message: "Page not found" });
    expect(render({ error })).toBe(renderNotFoundRoute());
    expect(render({ error })).toContain("Page Not Found");
    const notFoundHead = notFoundMeta({ matches: [ROOT_MATCH] } as AnyArgs);
    expect(headOf("no-such-page", undefined, error)).toEqual(notFoundHead);
  });

  it("answers 503 with the spec's message when the database cannot be read", async () => {
    const down = await visit("about", {
      pages: { getPublicPage: () => Promise.reject(new DatabaseUnavailableError()) },
    } as unknown as Partial<Services>);
    expect(down).toMatchObject({ status: 503, body: { message: "Failed to load page. Please try again." } });
    expect(down.logger.error).toHaveBeenCalledOnce();
    const error = new UNSAFE_ErrorResponseImpl(503, "Service Unavailable", down.body);
    const html = render({ error });
    expect(html).toContain("Failed to load page. Please try again.");
    expect(html).toContain("Back to Home");
  });

  it("shows About in its original design, cached, until the writer saves it; then the saved body", async () => {
    const original = await visit("about");
    expect(original.status).toBe(200);
    const page = await blog.services.pages.getPublicPage("about");
    expect(original.tags).toEqual([`page:${page.id}`]);
    const before = render({ loaderData: original.data });
    expect(before).toContain("About Inkwell</h1>");
    expect(before).toContain("data-demo-form");
    const head = headOf("about", original.data);
    expect(head).toContainEqual({ title: "About | Inkwell" });
    expect(contentOf(head, "description")).toBe("Who writes Inkwell, and how to get in touch.");
    expect(head).toContainEqual({ tagName: "link", rel: "canonical", href: `${SITE}/about` });

    await edit("about", { content: "Two people and a *very* patient cat." });
    const after = render({ loaderData: (await visit("about")).data });
    expect(after).toContain("About</h1>");
    expect(after).toContain("Two people and a <em>very</em> patient cat.");
    expect(after).not.toContain("data-demo-form");
    expect(after).not.toContain("Last updated");
  });

  it("dates Privacy and Terms today, uncached, until edited; then by the edit", async () => {
    for (const [slug, title] of [
      ["privacy", "Privacy Policy"],
      ["terms", "Terms of Service"],
    ] as const) {
      const before = Date.now();
      const original = await visit(slug);
      const lastUpdated = Date.parse((original.data as { lastUpdated: string }).lastUpdated);
      expect(lastUpdated).toBeGreaterThanOrEqual(before);
      expect(lastUpdated).toBeLessThanOrEqual(Date.now());
      expect(original.tags, "a page dated today is not stored in the page cache").toEqual([]);
      const today = formatDate(new Date().toISOString(), "UTC");
      expect(render({ loaderData: original.data })).toContain(`${title}</h1>`);
      expect(render({ loaderData: original.data })).toContain(`>${today}</time>`);

      blog.clock.advance(86_400_000);
      const edited = await edit(slug, { content: "We keep nothing at all." });
      const shown = await visit(slug);
      expect(shown.data).toMatchObject({ lastUpdated: edited.editedAt });
      expect(shown.tags).toEqual([`page:${edited.id}`]);
      const html = render({ loaderData: shown.data });
      expect(html).toContain(`>${formatDate(edited.editedAt!, "UTC")}</time>`);
      expect(html).not.toContain(`>${today}</time>`);
      expect(html).toContain("We keep nothing at all.");
    }
  });

  describe("the sitemap", () => {
    async function get(pathname: string): Promise<Response> {
      const { context } = createRouteTestContext(blog.services);
      const file = pathname.startsWith("/sitemaps/") ? pathname.slice("/sitemaps/".length) : undefined;
      const request = new Request(`${SITE}${pathname}`);
      const outcome = await sitemapLoader(routeArgs(request, context, file ? { file } : {}) as AnyArgs).catch(
        (thrown: unknown) => thrown,
      );
      if (outcome instanceof Response) return outcome;
      throw outcome;
    }

    it("lists published pages once each with when they changed, and leaves out a draft", async () => {
      blog.clock.advance(3_600_000);
      const colophon = await publish({ title: "Colophon", content: "How it is made." });
      await blog.services.pages.createPage(input({ title: "Secret plans", content: "Not yet." }), WRITER);
      const pages = await (await get("/sitemaps/pages.xml")).text();
      expect(locs(pages)).toEqual([
        `${SITE}/`,
        `${SITE}/blog`,
        `${SITE}/categories`,
        `${SITE}/about`,
        `${SITE}/colophon`,
        `${SITE}/privacy`,
        `${SITE}/terms`,
      ]);
      expect(pages).toContain(`<loc>${SITE}/colophon</loc><lastmod>${colophon.updatedAt}</lastmod>`);
      expect(pages).not.toContain("secret-plans");
      expect(locs(await (await get("/sitemap.xml")).text())).toEqual([`${SITE}/sitemaps/pages.xml`]);
      if (!xmllintMissing) {
        const checked = spawnSync("xmllint", ["--noout", "--schema", "tests/fixtures/sitemap.xsd", "-"], {
          input: pages,
        });
        expect(checked.status, checked.stderr.toString()).toBe(0);
      }

      // Unpublished, it leaves the sitemap.
      await blog.services.pages.updatePage(
        colophon.id,
        input({ ...toPageFormValues(colophon), published: false }),
        WRITER,
      );
      expect(locs(await (await get("/sitemaps/pages.xml")).text())).not.toContain(`${SITE}/colophon`);
      expect((await get("/sitemaps/pages-2.xml")).status).toBe(404);
    });

    it("pages through many pages a file at a time, every page once, with no empty file", async () => {
      for (let index = 0; index < 13; index += 1) {
        await publish({ title: `Page ${String(index).padStart(2, "0")}`, content: "x" });
      }
      const list = (after: string, limit: number) => blog.services.pages.listSitemapPages(after, limit);
      // Files of 12 URLs: the first keeps 9 for the site's own pages and the six categories.
      expect(await countPageSitemaps(list, 12)).toBe(3);
      const files = [];
      for (let file = 1; file <= 4; file += 1)
        files.push((await readPageSitemap(list, file, 12))?.map((page) => page.slug));
      expect(files[0]).toEqual(["about", "page-00", "page-01"]);
      expect(files[1]).toHaveLength(12);
      expect(files[2]).toEqual(["terms"]);
      expect(files[3]).toBeUndefined();
      expect(files.flat().filter(Boolean)).toHaveLength(16);

      // Exactly full files: none is left empty at the end.
      await blog.services.pages.deletePage((await blog.services.pages.getPublicPage("terms")).id, WRITER);
      expect(await countPageSitemaps(list, 12)).toBe(2);
    });
  });

  it("keeps pages out of the home page, /blog, search, categories and the feeds", async () => {
    await createPosts(blog.services, blog.clock, [{ title: "An ordinary post", category: "Design" }]);
    await publish({ title: "Quillwort Almanac", content: "Quillwort grows by the pond.", description: "Quillwort." });
    const { context } = createRouteTestContext(blog.services);
    const get = (handler: (args: AnyArgs) => unknown, path: string, params: Record<string, string> = {}) =>
      settle(() => handler(routeArgs(new Request(`${SITE}${path}`), context, params) as AnyArgs));

    const pages = [
      await get(homeLoader, "/"),
      await get(blogLoader, "/blog"),
      await get(blogLoader, "/search?q=Quillwort"),
      await get(blogLoader, "/search?q=pond"),
      await get(categoriesLoader, "/categories"),
      ...(await Promise.all(
        CATEGORIES.map((category) =>
          get(categoryLoader, categoryPath(category), { category: categoryPath(category).split("/").at(-1)! }),
        ),
      )),
    ];
    for (const page of pages) {
      expect(page.status).toBe(200);
      // A search names its own query; nothing else on these pages may name the page.
      expect(JSON.stringify({ ...(page.body as object), query: undefined })).not.toMatch(/quillwort/i);
    }
    expect(JSON.stringify(pages[1]!.body)).toContain("An ordinary post");
    expect(pages[2]!.body).toMatchObject({ posts: [] });

    for (const path of ["/rss.xml", "/atom.xml", "/feed.json", "/category/design/rss.xml"]) {
      const params: Record<string, string> = path.startsWith("/category/") ? { category: "design" } : {};
      const feed = (await feedLoader(routeArgs(new Request(`${SITE}${path}`), context, params) as AnyArgs)) as Response;
      const body = await feed.text();
      expect(body, path).toContain("An ordinary post");
      expect(body, path).not.toMatch(/quillwort/i);
    }
  });
});

describe.each(testDialects())("pages and the fediverse on $dialect", (database) => {
  const blog = useFederatedBlog(database);

  it("never puts a page in the outbox", async () => {
    await blog.services.pages.createPage(
      input({ title: "Quillwort Almanac", content: "Quillwort.", published: true }),
      WRITER,
    );
    await blog.fediverse.sweep();
    const outbox = (await (await blog.get("/ap/users/blog/outbox")).json()) as { totalItems: number; first: string };
    expect(outbox.totalItems).toBe(0);
    expect(JSON.stringify(await (await blog.get(outbox.first)).json())).not.toMatch(/quillwort/i);
  });
});
