import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loader as robotsLoader } from "../../app/routes/resources/robots.ts";
import { loader as sitemapLoader } from "../../app/routes/resources/sitemap.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, createPosts } from "../support/factories.ts";
import { createRouteTestContext, routeArgs } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

const SITE = "http://blog.test";
const FIXTURES = path.resolve("tests/fixtures");
const xmllintMissing = spawnSync("xmllint", ["--version"]).error !== undefined;
if (xmllintMissing) {
  if (process.env.CI === "true") throw new Error("xmllint is required under CI (Debian package libxml2-utils)");
  console.warn("Sitemap schema checks skipped: xmllint is not installed (Debian package libxml2-utils).");
}

/** Validates a document with xmllint against one of the sitemaps.org schemas; throws with xmllint's reasons. */
function validate(xml: string, schema: "sitemap.xsd" | "siteindex.xsd"): void {
  const directory = mkdtempSync(path.join(tmpdir(), "sitemap-"));
  try {
    const file = path.join(directory, "document.xml");
    writeFileSync(file, xml);
    execFileSync("xmllint", ["--noout", "--schema", path.join(FIXTURES, schema), file], { stdio: "pipe" });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
}

describe.each(testDialects())("sitemap and robots.txt on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  async function get(pathname: string): Promise<Response> {
    const { context } = createRouteTestContext(blog.services);
    const file = pathname.startsWith("/sitemaps/") ? pathname.slice("/sitemaps/".length) : undefined;
    const request = new Request(`${SITE}${pathname}`);
    try {
      return (await sitemapLoader(routeArgs(request, context, file ? { file } : {}) as never)) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  it("indexes a page sitemap and one posts sitemap, each valid against the sitemaps.org schema", async () => {
    const [design, dev, draft] = await createPosts(blog.services, blog.clock, [
      { title: "Design post", category: "Design" },
      { title: "Dev post", category: "Development" },
      { title: "Draft post", category: "Marketing", published: false },
    ]);

    const index = await (await get("/sitemap.xml")).text();
    expect(locs(index)).toEqual([`${SITE}/sitemaps/pages.xml`, `${SITE}/sitemaps/posts-1.xml`]);

    const pages = await (await get("/sitemaps/pages.xml")).text();
    expect(locs(pages)).toEqual([
      `${SITE}/`,
      `${SITE}/blog`,
      `${SITE}/categories`,
      `${SITE}/about`,
      `${SITE}/privacy`,
      `${SITE}/terms`,
      `${SITE}/category/development`,
      `${SITE}/category/design`,
    ]);
    expect(pages).toContain(`<loc>${SITE}/category/design</loc><lastmod>${design!.updatedAt}</lastmod>`);

    const postsResponse = await get("/sitemaps/posts-1.xml");
    expect(postsResponse.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    const posts = await postsResponse.text();
    expect(locs(posts).toSorted()).toEqual([`${SITE}/blog/${design!.slug}`, `${SITE}/blog/${dev!.slug}`].toSorted());
    expect(posts).toContain(`<loc>${SITE}/blog/dev-post</loc><lastmod>${dev!.updatedAt}</lastmod>`);

    for (const body of [index, pages, posts]) {
      expect(body).not.toContain(draft!.slug);
      expect(body).not.toContain("/category/marketing");
    }
    if (!xmllintMissing) {
      validate(index, "siteindex.xsd");
      validate(pages, "sitemap.xsd");
      validate(posts, "sitemap.xsd");
    }
  });

  it("stays well-formed when a post's title and tags carry control characters", async () => {
    await createPosts(blog.services, blog.clock, [
      { title: "Bell\u0007 and \uFFFE in a title", category: "Design", tags: ["tab\u0001tag"] },
    ]);
    for (const pathname of ["/sitemap.xml", "/sitemaps/pages.xml", "/sitemaps/posts-1.xml"]) {
      const body = await (await get(pathname)).text();
      expect(body, pathname).not.toMatch(/\p{Cc}(?<![\t\n\r])|\uFFFE/u);
      if (!xmllintMissing) validate(body, pathname === "/sitemap.xml" ? "siteindex.xsd" : "sitemap.xsd");
    }
  });

  it("updates a post's lastmod when it is edited, and answers 404 past the last posts sitemap", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "Edited later" }]);
    blog.clock.advance(3_600_000);
    const edited = await blog.services.posts.updatePost(
      post!.id,
      buildPostInput({ title: post!.title, slug: post!.slug, content: "<p>New body</p>" }),
    );
    expect(await (await get("/sitemaps/posts-1.xml")).text()).toContain(`<lastmod>${edited.updatedAt}</lastmod>`);
    expect((await get("/sitemaps/posts-2.xml")).status).toBe(404);
    expect((await get("/sitemaps/posts-0.xml")).status).toBe(404);
    expect((await get("/sitemaps/other.xml")).status).toBe(404);
  });

  it("lists no posts sitemap while nothing is published", async () => {
    await createPosts(blog.services, blog.clock, [{ published: false }]);
    expect(locs(await (await get("/sitemap.xml")).text())).toEqual([`${SITE}/sitemaps/pages.xml`]);
    expect((await get("/sitemaps/posts-1.xml")).status).toBe(404);
  });

  it("pages through published posts by keyset, from any start, a batch at a time", async () => {
    const posts = await createPosts(
      blog.services,
      blog.clock,
      Array.from({ length: 7 }, (_, index) => ({ published: index !== 3 })),
    );
    const published = posts
      .filter((post) => post.published)
      .map((post) => post.id)
      .toSorted();
    const read = async (start: number, count: number) => {
      const ids: string[] = [];
      for await (const batch of blog.services.posts.streamPublishedPostAddresses(start, count, 2)) {
        expect(batch.length).toBeLessThanOrEqual(2);
        ids.push(...batch.map((address) => address.id));
      }
      return ids;
    };
    expect(await read(0, 10)).toEqual(published);
    expect(await read(1, 3)).toEqual(published.slice(1, 4));
    expect(await read(4, 5)).toEqual(published.slice(4));
    expect(await read(6, 5)).toEqual([]);
  });

  it("robots.txt lets crawlers read the site but not the admin or sign-in, and names the sitemap", async () => {
    const { context } = createRouteTestContext(blog.services);
    const response = robotsLoader(routeArgs(new Request(`${SITE}/robots.txt`), context) as never);
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    const lines = (await response.text()).split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Allow: /",
        "Disallow: /admin",
        "Disallow: /login",
        `Sitemap: ${SITE}/sitemap.xml`,
      ]),
    );
  });
});
