import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { appContext } from "#server/request-context.ts";
import { loader as feedLoader } from "../../app/routes/resources/feed.ts";
import { FEED_POST_COUNT } from "../../server/services/posts.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { createRouteTestContext, routeArgs } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

const SITE = "http://blog.test";
const REPEATED = new Set(["rss.channel.item", "rss.channel.item.category", "feed.entry", "feed.entry.link"]);
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (_name, jpath) => REPEATED.has(String(jpath)),
});

describe.each(testDialects())("feeds on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  async function get(
    path: string,
    headers: Record<string, string> = {},
    naming?: { title: string; description: string },
  ): Promise<Response> {
    const { context } = createRouteTestContext(blog.services);
    if (naming) {
      const values = context.get(appContext);
      context.set(appContext, { ...values, site: { ...values.site, ...naming } });
    }
    const category = path.match(/^\/category\/([^/]+)\//)?.[1];
    const request = new Request(`${SITE}${path}`, { headers });
    return (await feedLoader(routeArgs(request, context, category ? { category } : {}) as never)) as Response;
  }

  async function seed() {
    return createPosts(blog.services, blog.clock, [
      { title: "Older design note", category: "Design", tags: ["type", "colour"] },
      { title: "Hidden draft", category: "Design", published: false, content: "<p>DRAFT BODY</p>" },
      {
        title: "Newest dev post",
        category: "Development",
        tags: ["sqlite"],
        content: '<p>Hello <script>alert(1)</script><a href="https://example.com" onclick="x()">there</a></p>',
      },
    ]);
  }

  it("RSS 2.0 carries the channel and each published item with its required elements", async () => {
    const [older, , newest] = await seed();
    const response = await get("/rss.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/rss+xml; charset=utf-8");
    const { rss } = xml.parse(await response.text());
    expect(rss["@version"]).toBe("2.0");
    expect(rss.channel).toMatchObject({ title: "Inkwell", link: `${SITE}/`, description: expect.any(String) });
    const items = rss.channel.item;
    expect(items.map((item: { title: string }) => item.title)).toEqual([newest!.title, older!.title]);
    const [first] = items;
    expect(first.link).toBe(`${SITE}/blog/newest-dev-post`);
    expect(first.guid["#text"]).toBe(`${SITE}/blog/newest-dev-post`);
    expect(new Date(first.pubDate).toISOString()).toBe(newest!.createdAt);
    expect(first.author).toBe("Ada Writer");
    expect(
      first.category.map((category: string | { "#text": string }) =>
        typeof category === "string" ? category : category["#text"],
      ),
    ).toEqual(["Development", "sqlite"]);
    expect(first["content:encoded"]).toContain('<a href="https://example.com">there</a>');
    expect(first["content:encoded"]).not.toMatch(/script|onclick/);
  });

  it("Atom has the feed's id, title and updated, and each entry's id, title, updated and link", async () => {
    const [, , newest] = await seed();
    const { feed } = xml.parse(await (await get("/atom.xml")).text());
    expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.id).toBe(`${SITE}/`);
    expect(feed.title).toBe("Inkwell");
    expect(new Date(feed.updated).toISOString()).toBe(newest!.updatedAt);
    expect(feed.entry).toHaveLength(2);
    const [entry] = feed.entry;
    expect(entry.id).toBe(`${SITE}/blog/newest-dev-post`);
    expect(entry.title["#text"] ?? entry.title).toBe(newest!.title);
    expect(new Date(entry.updated).toISOString()).toBe(newest!.updatedAt);
    expect(entry.link[0]["@href"]).toBe(`${SITE}/blog/newest-dev-post`);
    expect(entry.author.name).toBe("Ada Writer");
  });

  it("JSON Feed 1.1 has its version, title and each item's id, url and HTML", async () => {
    const [older, , newest] = await seed();
    const response = await get("/feed.json");
    expect(response.headers.get("Content-Type")).toBe("application/feed+json; charset=utf-8");
    const feed = (await response.json()) as {
      version: string;
      title: string;
      feed_url: string;
      items: { id: string; url: string; content_html: string; authors: { name: string }[]; tags: string[] }[];
    };
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(feed.title).toBe("Inkwell");
    expect(feed.feed_url).toBe(`${SITE}/feed.json`);
    expect(feed.items.map((item) => item.url)).toEqual([`${SITE}/blog/${newest!.slug}`, `${SITE}/blog/${older!.slug}`]);
    expect(feed.items[0]).toMatchObject({
      id: `${SITE}/blog/newest-dev-post`,
      authors: [{ name: "Ada Writer" }],
      tags: ["Development", "sqlite"],
      content_html: expect.stringContaining("Hello"),
    });
  });

  it("a category's feeds hold only its published posts", async () => {
    const [older] = await seed();
    for (const path of ["/category/design/rss.xml", "/category/design/atom.xml", "/category/design/feed.json"]) {
      const body = await (await get(path)).text();
      expect(body, path).toContain(`${SITE}/blog/${older!.slug}`);
      expect(body, path).not.toContain("newest-dev-post");
      expect(body, path).not.toMatch(/Hidden draft|DRAFT BODY|hidden-draft/);
    }
    expect((await get("/category/nonsense/rss.xml").catch((error: unknown) => error)) as Response).toMatchObject({
      status: 404,
    });
  });

  it("names the blog as its owner did in Settings, in every format", async () => {
    await seed();
    const naming = { title: "Jane's Garden Notes", description: "Essays on soil and seasons." };
    const { rss } = xml.parse(await (await get("/rss.xml", {}, naming)).text());
    expect(rss.channel).toMatchObject({ title: naming.title, description: naming.description });
    const { feed } = xml.parse(await (await get("/category/design/atom.xml", {}, naming)).text());
    expect(feed.title).toBe(`Design | ${naming.title}`);
    const json = (await (await get("/feed.json", {}, naming)).json()) as { title: string; description: string };
    expect(json).toMatchObject(naming);
  });

  it("never carries a draft, and holds the newest twenty", async () => {
    await createPosts(
      blog.services,
      blog.clock,
      Array.from({ length: FEED_POST_COUNT + 2 }, (_, index) => ({ title: `Post ${index}` })),
    );
    await seed();
    for (const path of ["/rss.xml", "/atom.xml", "/feed.json"]) {
      const body = await (await get(path)).text();
      expect(body, path).not.toMatch(/Hidden draft|DRAFT BODY|hidden-draft/);
      expect(body.match(/\/blog\/post-\d+/g)?.length, path).toBeGreaterThan(0);
    }
    const { items } = (await (await get("/feed.json")).json()) as { items: unknown[] };
    expect(items).toHaveLength(FEED_POST_COUNT);
  });

  it("answers 304 to a reader that already has the current feed, and 200 once it changes", async () => {
    await seed();
    const first = await get("/rss.xml");
    const etag = first.headers.get("ETag")!;
    const lastModified = first.headers.get("Last-Modified")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get("/rss.xml", { "If-None-Match": etag })).status).toBe(304);
    expect((await get("/rss.xml", { "If-Modified-Since": lastModified })).status).toBe(304);
    expect((await get("/rss.xml", { "If-None-Match": '"something-else"' })).status).toBe(200);

    blog.clock.advance(60_000);
    await createPosts(blog.services, blog.clock, [{ title: "Brand new" }]);
    const changed = await get("/rss.xml", { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect((await get("/rss.xml", { "If-Modified-Since": lastModified })).status).toBe(200);
  });
});
