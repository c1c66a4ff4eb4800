import { execFileSync, spawnSync } from "node:child_process";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { Parser } from "htmlparser2";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { appContext } from "#server/request-context.ts";
import { loader as feedLoader } from "../../app/routes/resources/feed.ts";
import { FEED_POST_COUNT } from "../../server/posts/public-reads.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { createRouteTestContext, routeArgs } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

const SITE = "http://blog.test";
const REPEATED = new Set([
  "rss.channel.item",
  "rss.channel.item.category",
  "feed.entry",
  "feed.entry.link",
  "feed.entry.category",
]);
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (_name, jpath) => REPEATED.has(String(jpath)),
  // Titles and tags are text to compare, never numbers or trimmed.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
});

const xmllintMissing = spawnSync("xmllint", ["--version"]).error !== undefined;
if (xmllintMissing) {
  if (process.env.CI === "true") throw new Error("xmllint is required under CI (Debian package libxml2-utils)");
  console.warn("Feed well-formedness checks with xmllint skipped: xmllint is not installed (libxml2-utils).");
}

/**
 * A feed as a strict XML parser reads it: fast-xml-parser's validator lets `<` in an
 * attribute and control characters through, libxml2 (xmllint) does not.
 */
function parseWellFormed(body: string, path: string) {
  expect(XMLValidator.validate(body), path).toBe(true);
  if (!xmllintMissing) execFileSync("xmllint", ["--noout", "-"], { input: body, stdio: ["pipe", "pipe", "pipe"] });
  return xml.parse(body);
}

/** Every URL an HTML fragment points at: links, images and each candidate of a srcset. */
function urlsIn(html: string): string[] {
  const urls: string[] = [];
  const parser = new Parser({
    onattribute(name, value) {
      if (name === "href" || name === "src") urls.push(value);
      if (name === "srcset") urls.push(...value.split(/,\s+/).map((candidate) => candidate.trim().split(/\s+/)[0]!));
    },
  });
  parser.write(html);
  parser.end();
  return urls;
}

/** Whether an HTML fragment is only text: no element at all, whatever the text says. */
function elementsIn(html: string): string[] {
  const names: string[] = [];
  const parser = new Parser({ onopentagname: (name) => names.push(name) });
  parser.write(html);
  parser.end();
  return names;
}

function decodeHtmlText(html: string): string {
  let text = "";
  const parser = new Parser({ ontext: (data) => (text += data) }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return text;
}

function expectAbsolute(url: string, where: string) {
  expect(URL.canParse(url), `${where}: ${url}`).toBe(true);
  expect(new URL(url).protocol, `${where}: ${url}`).toMatch(/^(https?|mailto):$/);
}

/** Characters XML 1.0 cannot carry at all, not even as a reference. */
const NOT_XML = /(?![\t\n\r])[\p{Cc}\uFFFE\uFFFF]/gu;

const HOSTILE = {
  title: "Tags & <script>alert(1)</script> a<b \"&' \u202Eevil\u200D 🦊\u0007 end\uFFFE",
  excerpt: "<script>alert(1)</script><img src=x onerror=alert(2)> a<b \"&' ]]> fin\u0001",
  author: 'Ada "<b>" & Co\u000B',
  tags: ["a<b", "\"&'", "<img src=x onerror=alert(3)>", "]]>x"],
};

describe.each(testDialects())("feeds on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  async function get(
    path: string,
    headers: Record<string, string> = {},
    site?: Partial<{ title: string; description: string; siteUrl: string }>,
  ): Promise<Response> {
    const { context } = createRouteTestContext(blog.services);
    if (site) {
      const values = context.get(appContext);
      context.set(appContext, { ...values, site: { ...values.site, ...site } });
    }
    const category = path.match(/^\/category\/([^/]+)\//)?.[1];
    const request = new Request(`${site?.siteUrl ?? SITE}${path}`, { headers });
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
    expect(first.author).toBeUndefined();
    expect(first["dc:creator"]).toBe("Ada Writer");
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

  /** A 1200-pixel JPEG uploaded as the editor does: its cover is a `/media/…` path on this site. */
  async function uploadCover() {
    const bytes = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#2a6f97" } })
      .jpeg()
      .toBuffer();
    const image = await blog.services.media.upload({
      bytes,
      name: "harbour.jpg",
      declaredType: "image/jpeg",
      uploadedBy: "admin-1",
    });
    const file = await blog.services.media.getFile(image.hash, 1200, "jpeg");
    return { ...image, size: file!.bytes.byteLength };
  }

  async function seedHostile() {
    const cover = await uploadCover();
    const [post] = await createPosts(blog.services, blog.clock, [
      {
        ...HOSTILE,
        category: "Design",
        coverImage: cover.url,
        content: [
          `<p>Bell\u0007 and ]]> in a body. <a href="/blog/elsewhere">on this site</a> <a href="#h-later">below</a>`,
          ` <a href="notes/more">beside</a> <a href="/javascript:alert(1)">odd path</a>`,
          ` <a href="https://example.com/?a=1&amp;b=2">away</a> <a href="mailto:ada@example.com">mail</a></p>`,
          `<p><img src="${cover.url}" alt="Harbour"> <img src="/covers/plain.png" srcset="/covers/plain-2x.png 2x, /covers/plain.png 1x" alt="Plain"></p>`,
        ].join(""),
      },
    ]);
    return { post: post!, cover };
  }

  const XML_FEEDS = ["/rss.xml", "/atom.xml", "/category/design/rss.xml", "/category/design/atom.xml"];

  it("a post with hostile text and an uploaded cover leaves every feed well-formed, absolute and plain", async () => {
    const { cover } = await seedHostile();
    const coverUrl = `${SITE}${cover.url}`;
    const text = (value: string) => value.replace(NOT_XML, "");

    for (const path of XML_FEEDS) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      const body = await response.text();
      const parsed = parseWellFormed(body, path);
      if (parsed.rss) {
        expect(parsed.rss["@xmlns:dc"], path).toBe("http://purl.org/dc/elements/1.1/");
        const [item] = parsed.rss.channel.item;
        expect(item.title, path).toBe(text(HOSTILE.title));
        // RSS descriptions are HTML: the excerpt goes out escaped, so a reader shows its text.
        expect(elementsIn(item.description), path).toEqual([]);
        expect(decodeHtmlText(item.description), path).toBe(text(HOSTILE.excerpt));
        expect(item.author, path).toBeUndefined();
        expect(item["dc:creator"], path).toBe(text(HOSTILE.author));
        expect(
          item.category.map((category: string | { "#text": string }) =>
            typeof category === "string" ? category : category["#text"],
          ),
          path,
        ).toEqual(["Design", ...HOSTILE.tags]);
        expect(item.enclosure, path).toEqual({
          "@url": coverUrl,
          "@type": "image/jpeg",
          "@length": String(cover.size),
        });
        for (const url of urlsIn(item["content:encoded"])) expectAbsolute(url, path);
        expect(item["content:encoded"], path).toContain(`<a href="${SITE}/blog/elsewhere">`);
      } else {
        const [entry] = parsed.feed.entry;
        expect(entry.title["@type"] ?? "text", path).toBe("text");
        expect(entry.title["#text"] ?? entry.title, path).toBe(text(HOSTILE.title));
        expect(entry.summary["@type"] ?? "text", path).toBe("text");
        expect(entry.summary["#text"] ?? entry.summary, path).toBe(text(HOSTILE.excerpt));
        expect(entry.author.name, path).toBe(text(HOSTILE.author));
        expect(
          entry.category.map((category: { "@term": string }) => category["@term"]),
          path,
        ).toEqual(["Design", ...HOSTILE.tags]);
        const enclosure = entry.link.find((link: { "@rel"?: string }) => link["@rel"] === "enclosure");
        expect(enclosure, path).toMatchObject({
          "@href": coverUrl,
          "@type": "image/jpeg",
          "@length": String(cover.size),
        });
        for (const link of entry.link) expectAbsolute(link["@href"], path);
        for (const url of urlsIn(entry.content["#text"])) expectAbsolute(url, path);
      }
    }

    for (const path of ["/feed.json", "/category/design/feed.json"]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      const feed = JSON.parse(await response.text()) as {
        items: {
          title: string;
          summary: string;
          image: string;
          content_html: string;
          authors: { name: string }[];
          tags: string[];
        }[];
      };
      const [item] = feed.items;
      expect(item, path).toMatchObject({
        title: HOSTILE.title,
        summary: HOSTILE.excerpt,
        image: coverUrl,
        authors: [{ name: HOSTILE.author }],
        tags: ["Design", ...HOSTILE.tags],
      });
      for (const url of urlsIn(item!.content_html)) expectAbsolute(url, path);
    }
  });

  it("resolves every address in a body against the post, and site paths against SITE_URL with its prefix", async () => {
    const { post, cover } = await seedHostile();
    const siteUrl = "https://notes.example/journal";
    const postUrl = `${siteUrl}/blog/${post.slug}`;
    const { items } = (await (await get("/feed.json", {}, { siteUrl })).json()) as {
      items: { url: string; image: string; content_html: string }[];
    };
    const [item] = items;
    expect(item!.url).toBe(postUrl);
    expect(item!.image).toBe(`${siteUrl}${cover.url}`);
    const urls = urlsIn(item!.content_html);
    expect(urls).toEqual(
      expect.arrayContaining([
        `${siteUrl}/blog/elsewhere`,
        `${postUrl}#h-later`,
        `${siteUrl}/blog/notes/more`,
        `${siteUrl}/javascript:alert(1)`,
        "https://example.com/?a=1&b=2",
        "mailto:ada@example.com",
        `${siteUrl}/covers/plain.png`,
        `${siteUrl}/covers/plain-2x.png`,
      ]),
    );
    for (const url of urls)
      expect(url, url).toMatch(/^(https:\/\/notes\.example\/journal\/|https:\/\/example\.com\/|mailto:)/);
  });

  it("names each cover's image type and size, and leaves out a cover that is no address", async () => {
    const cover = await uploadCover();
    await createPosts(blog.services, blog.clock, [
      { title: "Uploaded", coverImage: cover.url },
      { title: "Drawn", coverImage: "https://images.example.com/covers/drawing.SVG?v=2" },
      { title: "Photo", coverImage: "https://images.example.com/photo.jpg" },
      { title: "Unknown kind", coverImage: "https://images.example.com/photo?id=7" },
      { title: "Broken", coverImage: "http://[not a host" },
    ]);
    for (const path of ["/rss.xml", "/atom.xml", "/feed.json"]) expect((await get(path)).status, path).toBe(200);

    const { rss } = parseWellFormed(await (await get("/rss.xml")).text(), "/rss.xml");
    const enclosures = Object.fromEntries(
      rss.channel.item.map((item: { title: string; enclosure?: Record<string, string> }) => [
        item.title,
        item.enclosure,
      ]),
    );
    expect(enclosures).toEqual({
      Broken: undefined,
      "Unknown kind": undefined,
      Photo: { "@url": "https://images.example.com/photo.jpg", "@type": "image/jpeg", "@length": "0" },
      Drawn: {
        "@url": "https://images.example.com/covers/drawing.SVG?v=2",
        "@type": "image/svg+xml",
        "@length": "0",
      },
      Uploaded: { "@url": `${SITE}${cover.url}`, "@type": "image/jpeg", "@length": String(cover.size) },
    });

    const { feed } = parseWellFormed(await (await get("/atom.xml")).text(), "/atom.xml");
    const drawn = feed.entry.find((entry: { title: unknown }) => entry.title === "Drawn");
    expect(drawn.link).toContainEqual({
      "@rel": "enclosure",
      "@href": "https://images.example.com/covers/drawing.SVG?v=2",
      "@type": "image/svg+xml",
    });

    const json = (await (await get("/feed.json")).json()) as { items: { title: string; image?: string }[] };
    expect(Object.fromEntries(json.items.map((item) => [item.title, item.image]))).toEqual({
      Broken: undefined,
      "Unknown kind": "https://images.example.com/photo?id=7",
      Photo: "https://images.example.com/photo.jpg",
      Drawn: "https://images.example.com/covers/drawing.SVG?v=2",
      Uploaded: `${SITE}${cover.url}`,
    });
  });
});
