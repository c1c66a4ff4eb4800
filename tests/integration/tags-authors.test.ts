import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loader as authorLoader } from "../../app/routes/site/author.tsx";
import { loader as postLoader } from "../../app/routes/site/post.tsx";
import { loader as tagLoader } from "../../app/routes/site/tag.tsx";
import { loader as feedLoader } from "../../app/routes/resources/feed.ts";
import { loader as sitemapLoader } from "../../app/routes/resources/sitemap.ts";
import type { SessionUser } from "../../server/accounts/index.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { createRouteTestContext, routeArgs, settle } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

const SITE = "http://blog.test";
const xmllintMissing = spawnSync("xmllint", ["--version"]).error !== undefined;
if (xmllintMissing && process.env.CI === "true") throw new Error("xmllint is required under CI (libxml2-utils)");

function validate(xml: string, schema: "sitemap.xsd" | "siteindex.xsd"): void {
  if (xmllintMissing) return;
  const directory = mkdtempSync(path.join(tmpdir(), "sitemap-"));
  try {
    const file = path.join(directory, "document.xml");
    writeFileSync(file, xml);
    execFileSync("xmllint", ["--noout", "--schema", path.resolve("tests/fixtures", schema), file], { stdio: "pipe" });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
const titlesOf = (body: unknown) => (body as { posts: { title: string }[] }).posts.map((post) => post.title);

describe.each(testDialects())("tag and author pages on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  async function load(loader: (args: never) => unknown, url: string, params: Record<string, string>) {
    const { context } = createRouteTestContext(blog.services);
    return settle(() => loader(routeArgs(new Request(`${SITE}${url}`), context, params) as never));
  }

  async function fetchText(url: string, params: Record<string, string>, loader: (args: never) => unknown) {
    const { context } = createRouteTestContext(blog.services);
    try {
      return (await loader(routeArgs(new Request(`${SITE}${url}`), context, params) as never)) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  async function signUp(email: string): Promise<SessionUser> {
    const account = await blog.services.auth.createAdmin(email, "a long enough password");
    return {
      id: account.id,
      email: account.email,
      username: account.displayName,
      role: account.role,
      writingView: account.writingView,
      isAdmin: true,
    };
  }

  it("lists a tag's public posts in any spelling, a page at a time, never a draft or a scheduled post", async () => {
    await createPosts(blog.services, blog.clock, [
      { title: "Oldest", tags: ["css"] },
      { title: "Draft", tags: ["CSS"], published: false },
      { title: "Middle", tags: ["Design", "Css"] },
      { title: "Scheduled", tags: ["CSS"], publishAt: "2026-03-06T12:00", publishAtOffset: "0" },
      { title: "Newest", tags: ["CSS"] },
      { title: "Untagged" },
    ]);
    const first = await blog.services.posts.listTagPosts("CsS", 1, 2);
    expect(first.tag).toBe("CSS");
    expect(first.items.map((post) => post.title)).toEqual(["Newest", "Middle"]);
    expect(first.hasNext).toBe(true);
    const second = await blog.services.posts.listTagPosts("css", 2, 2);
    expect(second.items.map((post) => post.title)).toEqual(["Oldest"]);
    expect(second.hasNext).toBe(false);
    expect(second.tag).toBe("CSS");

    const page = await load(tagLoader, "/tag/css", { tag: "css" });
    expect(page.status).toBe(200);
    expect(titlesOf(page.body)).toEqual(["Newest", "Middle", "Oldest"]);
    expect((page.body as { tag: string }).tag).toBe("CSS");
    expect((await load(tagLoader, "/tag/unknown", { tag: "unknown" })).status).toBe(404);
    expect((await load(tagLoader, "/tag/css?page=2", { tag: "css" })).status).toBe(404);
  });

  it("answers 404 for a tag only drafts carry", async () => {
    await createPosts(blog.services, blog.clock, [{ title: "Secret", tags: ["hidden"], published: false }]);
    expect((await load(tagLoader, "/tag/hidden", { tag: "hidden" })).status).toBe(404);
    expect((await fetchText("/tag/hidden/rss.xml", { tag: "hidden" }, feedLoader)).status).toBe(404);
  });

  it("shows an author's public posts by their byline, and 404 for an address no author has", async () => {
    const ada = await signUp("ada@example.com");
    await createPosts(blog.services, blog.clock, [
      { title: "First by Ada", author: "ada" },
      { title: "Draft by Ada", author: "ada", published: false },
      { title: "By someone else", author: "Grace" },
      { title: "Second by Ada", author: "ada" },
    ]);
    await blog.services.users.updateAuthorProfile(ada, { slug: "", bio: "Writes about engines." });
    const page = await load(authorLoader, "/author/ada", { slug: "ada" });
    expect(page.status).toBe(200);
    expect(titlesOf(page.body)).toEqual(["Second by Ada", "First by Ada"]);
    expect((page.body as { author: { bio: string } }).author.bio).toBe("Writes about engines.");
    const paged = await blog.services.posts.listAuthorPosts("ada", 1, 1);
    expect(paged.items.map((post) => post.title)).toEqual(["Second by Ada"]);
    expect(paged.hasNext).toBe(true);
    expect((await load(authorLoader, "/author/grace", { slug: "grace" })).status).toBe(404);
    expect((await load(authorLoader, "/author/ada?page=2", { slug: "ada" })).status).toBe(404);
  });

  it("gives every account its own address, and refuses one another author has", async () => {
    const ada = await signUp("ada@example.com");
    const other = await signUp("ada@elsewhere.example");
    expect((await blog.services.users.readProfile(ada)).slug).toBe("ada");
    expect((await blog.services.users.readProfile(other)).slug).toBe("ada-2");
    await expect(blog.services.users.updateAuthorProfile(other, { slug: "ada", bio: "" })).rejects.toMatchObject({
      code: "SLUG_TAKEN",
    });
    await blog.services.users.updateAuthorProfile(other, { slug: "Ada Lovelace", bio: "" });
    expect((await blog.services.users.findAuthor("ada-lovelace"))?.name).toBe("ada");
  });

  it("puts the author box's author, with the page and picture, on the post page", async () => {
    const ada = await signUp("ada@example.com");
    await blog.services.users.updateAuthorProfile(ada, { slug: "ada-writes", bio: "Bio here." });
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "Bylined", author: "ada" }]);
    const page = await load(postLoader, `/blog/${post!.slug}`, { slug: post!.slug });
    expect((page.body as { author: unknown }).author).toEqual({
      name: "ada",
      slug: "ada-writes",
      bio: "Bio here.",
      avatar: "",
    });
    const [foreign] = await createPosts(blog.services, blog.clock, [{ title: "Imported", author: "Somebody" }]);
    const imported = await load(postLoader, `/blog/${foreign!.slug}`, { slug: foreign!.slug });
    expect((imported.body as { author: unknown }).author).toBeUndefined();
  });

  it("serves a tag's and an author's feeds with only their public posts", async () => {
    await signUp("ada@example.com");
    await createPosts(blog.services, blog.clock, [
      { title: "Tagged by Ada", author: "ada", tags: ["Rust"] },
      { title: "Tagged draft", author: "ada", tags: ["rust"], published: false },
      { title: "Other", author: "Grace", tags: ["Go"] },
    ]);
    const tagFeed = await (await fetchText("/tag/rust/atom.xml", { tag: "rust" }, feedLoader)).text();
    expect(tagFeed).toContain("Tagged by Ada");
    expect(tagFeed).not.toContain("Tagged draft");
    expect(tagFeed).not.toContain("<title>Other</title>");
    expect(tagFeed).toContain(`${SITE}/tag/rust/atom.xml`);
    const authorFeed = await (await fetchText("/author/ada/rss.xml", { slug: "ada" }, feedLoader)).text();
    expect(authorFeed).toContain("Tagged by Ada");
    expect(authorFeed).not.toContain("Tagged draft");
    expect(authorFeed).not.toContain("<title>Other</title>");
    const json = await (await fetchText("/author/ada/feed.json", { slug: "ada" }, feedLoader)).json();
    expect(json.items.map((item: { title: string }) => item.title)).toEqual(["Tagged by Ada"]);
    expect((await fetchText("/author/nobody/rss.xml", { slug: "nobody" }, feedLoader)).status).toBe(404);
  });

  it("lists tags and authors with public posts in the sitemap, valid against the sitemaps.org schema", async () => {
    await signUp("ada@example.com");
    await signUp("grace@example.com");
    await createPosts(blog.services, blog.clock, [
      { title: "Public", author: "ada", tags: ["Rust", "Web Design"] },
      { title: "Draft", author: "grace", tags: ["secret"], published: false },
    ]);
    const sitemap = (file: string) => fetchText(`/sitemaps/${file}`, { file }, sitemapLoader);
    const index = await (await fetchText("/sitemap.xml", {}, sitemapLoader)).text();
    expect(locs(index)).toEqual([
      `${SITE}/sitemaps/pages.xml`,
      `${SITE}/sitemaps/tags.xml`,
      `${SITE}/sitemaps/authors.xml`,
      `${SITE}/sitemaps/posts-1.xml`,
    ]);
    const tags = await (await sitemap("tags.xml")).text();
    expect(locs(tags)).toEqual([`${SITE}/tag/rust`, `${SITE}/tag/web%20design`]);
    const authors = await (await sitemap("authors.xml")).text();
    expect(locs(authors)).toEqual([`${SITE}/author/ada`]);
    validate(index, "siteindex.xsd");
    validate(tags, "sitemap.xsd");
    validate(authors, "sitemap.xsd");
  });

  it("leaves the tags and authors sitemaps out while nothing public has them", async () => {
    await signUp("ada@example.com");
    await createPosts(blog.services, blog.clock, [{ title: "Draft", author: "ada", tags: ["x"], published: false }]);
    const index = await (await fetchText("/sitemap.xml", {}, sitemapLoader)).text();
    expect(locs(index)).toEqual([`${SITE}/sitemaps/pages.xml`]);
    expect((await fetchText("/sitemaps/tags.xml", { file: "tags.xml" }, sitemapLoader)).status).toBe(404);
    expect((await fetchText("/sitemaps/authors.xml", { file: "authors.xml" }, sitemapLoader)).status).toBe(404);
  });
});
