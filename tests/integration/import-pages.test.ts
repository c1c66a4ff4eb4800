import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv } from "ajv";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { EMPTY_PAGE_FORM, type PageInput, pageSchema } from "#domain/page.ts";
import { DEFAULT_IMPORT_OPTIONS, type ImportOptions } from "#domain/portability.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createPosts, TEST_PASSWORD_COST } from "../support/factories.ts";
import { ghostPost } from "../support/ghost-export.ts";
import { TEST_COMMENT_IP_SALT, type TestBlog, useTestBlog } from "../support/test-blog.ts";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");
const schema = JSON.parse(readFileSync(new URL("../../docs/export-format.schema.json", import.meta.url), "utf8"));
const WRITER = { label: "Maya", email: "maya@example.com" };
const input = (fields: Partial<PageInput>): PageInput => pageSchema.parse({ ...EMPTY_PAGE_FORM, ...fields });
const OPTIONS: ImportOptions = { ...DEFAULT_IMPORT_OPTIONS, defaultCategory: "Technology" };

/** A Ghost 5 export of these posts and pages, with their meta rows. */
function ghostExport(posts: Record<string, unknown>[], postsMeta: Record<string, unknown>[] = []): string {
  return JSON.stringify({
    db: [{ meta: { version: "5.96.0" }, data: { posts, posts_meta: postsMeta, tags: [], posts_tags: [] } }],
  });
}

const ghostPage = (id: string, title: string, fields: Record<string, unknown> = {}) =>
  ghostPost(id, title, { type: "page", ...fields });

/** A WordPress export of the given `<item>`s, as WordPress writes its channel. */
function wordpressExport(items: string[]): string {
  const wordpress = fixture("wordpress-export.xml");
  return `${wordpress.slice(0, wordpress.indexOf("<item>"))}${items.join("\n")}\n</channel>\n</rss>\n`;
}

function wordpressPage(id: number, title: string, fields: { status?: string; slug?: string; extra?: string } = {}) {
  return `<item>
    <title><![CDATA[${title}]]></title>
    <content:encoded><![CDATA[<p>Body of ${title}.</p>]]></content:encoded>
    <wp:post_id>${id}</wp:post_id>
    <wp:post_name><![CDATA[${fields.slug ?? ""}]]></wp:post_name>
    <wp:post_date_gmt><![CDATA[2024-03-01 09:00:00]]></wp:post_date_gmt>
    <wp:post_modified_gmt><![CDATA[2024-04-02 10:30:00]]></wp:post_modified_gmt>
    <wp:status><![CDATA[${fields.status ?? "publish"}]]></wp:status>
    <wp:post_type><![CDATA[page]]></wp:post_type>
    ${fields.extra ?? ""}
  </item>`;
}

async function exportText(services: Services): Promise<string> {
  let text = "";
  for await (const chunk of services.portability.exportBlog()) text += chunk;
  return text;
}

/** Every page as the writer's list and editor see it, by slug. */
async function allPages(services: Services) {
  const list = await services.pages.listPages(1, 100);
  return Promise.all(list.items.map((page) => services.pages.getPageForEditing(page.id)));
}

async function isPublic(services: Services, slug: string): Promise<boolean> {
  return services.pages.getPublicPage(slug).then(
    () => true,
    (error: unknown) => {
      if (isDomainError(error, "PAGE_NOT_FOUND")) return false;
      throw error;
    },
  );
}

/** A second, empty blog of the same dialect, closed after `work`. */
async function withEmptyBlog(blog: TestBlog, work: (other: Services, db: TestBlog["handle"]["db"]) => Promise<void>) {
  const target = await createTestDatabase(blog.handle.dialect);
  try {
    const other = createServices({
      db: target.db,
      dialect: blog.handle.dialect,
      now: blog.clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    await work(other, target.db);
  } finally {
    await target.close();
  }
}

describe.each(testDialects())("pages in imports and exports on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("imports Ghost and WordPress pages as pages by default: at /{slug}, never on /blog, with their dates", async () => {
    const { services } = blog;
    const ghost = await services.portability.importBlog(fixture("ghost-export.json"), OPTIONS);
    expect(ghost.created).toMatchObject({ posts: 3, pages: 1 });
    expect(ghost.skipped).toEqual([]);
    // /about is the built-in About page's: the Ghost page takes the next free address, and the report says so.
    expect(ghost.warnings).toContain(
      "“About me” was at /about there; that address is taken here, so it is at /about-2",
    );
    const aboutMe = await services.pages.getPublicPage("about-2");
    expect(aboutMe).toMatchObject({
      title: "About me",
      format: "html",
      content: "<p>I write about the web.</p>",
      published: true,
      builtIn: null,
      createdAt: "2024-06-01T00:00:00.000Z",
      updatedAt: "2024-06-01T00:00:00.000Z",
      editedAt: "2024-06-01T00:00:00.000Z",
    });
    expect(aboutMe.contentHtml).toContain("I write about the web.");
    expect((await services.pages.getPublicPage("about")).title).toBe("About");

    const wordpress = await services.portability.importBlog(fixture("wordpress-export.xml"), OPTIONS);
    expect(wordpress.created).toMatchObject({ posts: 3, pages: 1 });
    expect(wordpress.skipped.map((skip) => skip.item)).toEqual(["“chisel.jpg”", "“Old rant”"]);
    expect(await services.pages.getPublicPage("about-the-workshop")).toMatchObject({
      title: "About the workshop",
      published: true,
      createdAt: "2024-05-01T09:00:00.000Z",
    });

    const onBlog = (await services.posts.listPublishedPosts(undefined, 1, 100)).items.map((post) => post.title);
    expect(onBlog).not.toContain("About me");
    expect(onBlog).not.toContain("About the workshop");
    expect(onBlog).toContain('Sharpening chisels – the "scary sharp" way');

    const again = await services.portability.importBlog(fixture("ghost-export.json"), OPTIONS);
    expect(again.created).toMatchObject({ posts: 0, pages: 0 });
    expect(again.skipped).toContainEqual({ item: "“About me”", reason: "imported before" });
    expect(await allPages(services)).toHaveLength(5);
  });

  it("keeps a draft, private, password-protected, scheduled or members-only source page a draft, and says why", async () => {
    const { services } = blog;
    const wordpress = await services.portability.importBlog(
      wordpressExport([
        wordpressPage(1, "Colophon", { slug: "colophon" }),
        wordpressPage(2, "Unfinished", { status: "draft" }),
        wordpressPage(3, "Private notes", { status: "private" }),
        wordpressPage(4, "Locked", { extra: "<wp:post_password><![CDATA[hunter2]]></wp:post_password>" }),
        wordpressPage(5, "Coming soon", { status: "future" }),
        wordpressPage(6, "Binned", { status: "trash" }),
      ]),
      OPTIONS,
    );
    expect(wordpress.created.pages).toBe(5);
    expect(wordpress.skipped).toEqual([{ item: "“Binned”", reason: "in WordPress's trash" }]);
    expect(wordpress.warnings).toEqual(
      expect.arrayContaining([
        "“Private notes” was private in WordPress: imported as a draft",
        "“Locked” was password-protected in WordPress: imported as a draft",
        "“Coming soon” was scheduled in WordPress, and a page has no publishing time: imported as a draft",
      ]),
    );
    const ghost = await services.portability.importBlog(
      ghostExport([
        ghostPage("g1", "Members lounge", { visibility: "members" }),
        ghostPage("g2", "Ghost draft", { status: "draft" }),
        ghostPage("g3", "Ghost later", { status: "scheduled", published_at: "2031-01-01T00:00:00.000Z" }),
        ghostPage("g4", "Ghost public"),
      ]),
      OPTIONS,
    );
    expect(ghost.created.pages).toBe(4);
    expect(ghost.warnings).toContain("“Members lounge” was for members only in Ghost: imported as a draft");

    const states = Object.fromEntries((await allPages(services)).map((page) => [page.title, page.published]));
    expect(states).toMatchObject({
      Colophon: true,
      Unfinished: false,
      "Private notes": false,
      Locked: false,
      "Coming soon": false,
      "Members lounge": false,
      "Ghost draft": false,
      "Ghost later": false,
      "Ghost public": true,
    });
    expect(await isPublic(services, "colophon")).toBe(true);
    expect(await isPublic(services, "private-notes")).toBe(false);
    expect(await isPublic(services, "members-lounge")).toBe(false);
    expect(await isPublic(services, "ghost-later")).toBe(false);
  });

  it("gives a page the site's own address the next free one, and takes its description from the source", async () => {
    const { services } = blog;
    const report = await services.portability.importBlog(
      ghostExport(
        [
          ghostPage("p1", "Our blog", { slug: "blog", custom_excerpt: "Custom excerpt." }),
          ghostPage("p2", "Contact", { custom_excerpt: "Custom excerpt of contact." }),
          ghostPost("p3", "Essay"),
        ],
        [
          { id: "m1", post_id: "p2", meta_description: "How to reach us." },
          { id: "m2", post_id: "p3", meta_description: "An essay, summed up." },
        ],
      ),
      OPTIONS,
    );
    expect(report.warnings).toContain(
      "“Our blog” was at /blog there; that address belongs to this site, so it is at /blog-2",
    );
    expect(await services.pages.getPublicPage("blog-2")).toMatchObject({
      title: "Our blog",
      description: "Custom excerpt.",
    });
    expect((await services.pages.getPublicPage("contact")).description).toBe("How to reach us.");
    // A post without a custom excerpt takes its meta description as its excerpt.
    const [essay] = (await services.posts.listPublishedPosts()).items;
    expect(essay).toMatchObject({ title: "Essay", excerpt: "An essay, summed up." });

    await services.portability.importBlog(
      wordpressExport([
        wordpressPage(7, "Uses", {
          extra:
            "<excerpt:encoded><![CDATA[What I work with.]]></excerpt:encoded>" +
            "<wp:postmeta><wp:meta_key><![CDATA[_yoast_wpseo_metadesc]]></wp:meta_key><wp:meta_value><![CDATA[Tools I use daily.]]></wp:meta_value></wp:postmeta>",
        }),
        wordpressPage(8, "Now", { extra: "<excerpt:encoded><![CDATA[What I do now.]]></excerpt:encoded>" }),
      ]),
      OPTIONS,
    );
    expect((await services.pages.getPublicPage("uses")).description).toBe("Tools I use daily.");
    expect((await services.pages.getPublicPage("now")).description).toBe("What I do now.");
  });

  it("imports pages as posts with --pages posts, and leaves them out with --pages skip", async () => {
    const { services } = blog;
    const skipped = await services.portability.importBlog(fixture("wordpress-export.xml"), {
      ...OPTIONS,
      pages: "skip",
    });
    expect(skipped.created).toMatchObject({ posts: 3, pages: 0 });
    expect(skipped.skipped).toContainEqual({
      item: "“About the workshop”",
      reason: expect.stringContaining("a page (left out as asked"),
    });
    expect(await allPages(services)).toHaveLength(3);

    const asPosts = await services.portability.importBlog(fixture("ghost-export.json"), { ...OPTIONS, pages: "posts" });
    expect(asPosts.created).toMatchObject({ posts: 4, pages: 0 });
    const posts = (await services.posts.listPublishedPosts(undefined, 1, 100)).items;
    expect(posts.find((post) => post.title === "About me")).toMatchObject({ category: "Technology" });
    expect(await allPages(services)).toHaveLength(3);
  });

  it("says that comments on a WordPress page are left out, pages having none", async () => {
    const report = await blog.services.portability.importBlog(
      wordpressExport([
        wordpressPage(9, "Guestbook", {
          extra: `<wp:comment><wp:comment_id>91</wp:comment_id><wp:comment_author><![CDATA[Ann]]></wp:comment_author>
            <wp:comment_date_gmt><![CDATA[2024-03-02 10:00:00]]></wp:comment_date_gmt>
            <wp:comment_content><![CDATA[Hello!]]></wp:comment_content><wp:comment_approved><![CDATA[1]]></wp:comment_approved>
            <wp:comment_type><![CDATA[comment]]></wp:comment_type></wp:comment>`,
        }),
      ]),
      OPTIONS,
    );
    expect(report.created).toMatchObject({ pages: 1, comments: 0 });
    expect(report.skipped).toEqual([{ item: "1 comments on “Guestbook”", reason: "a page has no comments" }]);
  });

  it("carries pages through its own export into an empty blog: the same pages, an edited built-in one included", async () => {
    const { services } = blog;
    const about = (await allPages(services)).find((page) => page.builtIn === "about")!;
    blog.clock.advance(60_000);
    await services.pages.updatePage(
      about.id,
      input({ title: "About us", slug: "about-us", content: "We are **two**.", published: true }),
      WRITER,
    );
    await services.pages.createPage(
      input({ title: "Now", content: "<p>Now.</p>", format: "html", description: "Today", published: true }),
      WRITER,
    );
    await services.pages.createPage(input({ title: "Not yet", content: "Draft.", showLastUpdated: true }), WRITER);
    const text = await exportText(services);
    const exported = JSON.parse(text) as { pages: Record<string, unknown>[]; pageRevisions: unknown[] };
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(exported), JSON.stringify(validate.errors)).toBe(true);
    expect(exported.pages).toHaveLength(5);
    expect(exported.pages).toContainEqual(
      expect.objectContaining({ builtIn: "about", slug: "about-us", title: "About us", editedAt: expect.any(String) }),
    );
    expect(Object.keys(exported.pages[0]!).sort()).toEqual(
      [
        "builtIn",
        "content",
        "createdAt",
        "description",
        "editedAt",
        "format",
        "id",
        "published",
        "showLastUpdated",
        "slug",
        "title",
        "updatedAt",
      ].sort(),
    );

    await withEmptyBlog(blog, async (other) => {
      await other.portability.importBlog(text, OPTIONS);
      expect(await allPages(other)).toEqual(await allPages(services));
      expect((await other.pages.getPublicPage("about-us")).contentHtml).toContain("<strong>two</strong>");
      expect(await isPublic(other, "about")).toBe(false);
      expect(await isPublic(other, "not-yet")).toBe(false);
      const reexported = JSON.parse(await exportText(other)) as typeof exported;
      expect(reexported.pages).toEqual(exported.pages);
      // Each save kept a revision; they travel with their pages.
      expect(exported.pageRevisions).toHaveLength(3);
      expect(reexported.pageRevisions).toEqual(exported.pageRevisions);

      const again = await other.portability.importBlog(text, OPTIONS);
      expect(again.created.pages).toBe(0);
      expect(await allPages(other)).toHaveLength(5);
    });
  });

  it("keeps this blog's edited built-in page over one the export never edited, and reads exports without pages", async () => {
    const { services } = blog;
    await createPosts(services, blog.clock, [{ title: "Hello" }]);
    const text = await exportText(services);
    await withEmptyBlog(blog, async (other) => {
      const privacy = (await allPages(other)).find((page) => page.builtIn === "privacy")!;
      await other.pages.updatePage(
        privacy.id,
        input({ title: "Privacy", slug: "privacy", content: "Ours.", published: true }),
        WRITER,
      );
      const report = await other.portability.importBlog(text, OPTIONS);
      // The export's built-in pages were never saved: nothing of a writer's to bring, nothing to report.
      expect(report.skipped.filter((skip) => skip.item.startsWith("page "))).toEqual([]);
      expect((await other.pages.getPublicPage("privacy")).content).toBe("Ours.");
      expect(report.created.posts).toBe(1);
      expect((await allPages(other)).map((page) => page.builtIn).sort()).toEqual(["about", "privacy", "terms"]);

      const document = JSON.parse(text) as Record<string, unknown>;
      delete document.pages;
      delete document.pageRevisions;
      await withEmptyBlog(blog, async (third) => {
        const old = await third.portability.importBlog(JSON.stringify(document), OPTIONS);
        expect(old.created).toMatchObject({ posts: 1, pages: 0 });
        expect(await allPages(third)).toHaveLength(3);
      });
    });
  });

  it("puts another blog's built-in page in place of this one's, with the export's id: one About, never two", async () => {
    const { services } = blog;
    const about = (await allPages(services)).find((page) => page.builtIn === "about")!;
    await services.pages.updatePage(about.id, input({ title: "About us", content: "Us.", published: true }), WRITER);
    const document = JSON.parse(await exportText(services)) as { pages: Record<string, unknown>[] };
    // Another install's About has an id of its own.
    for (const page of document.pages) if (page.builtIn === "about") page.id = "about-from-elsewhere";
    await withEmptyBlog(blog, async (other) => {
      const mine = (await allPages(other)).find((page) => page.builtIn === "about")!;
      await other.pages.updatePage(mine.id, input({ title: "Mine", slug: "about", content: "Mine." }), WRITER);
      const report = await other.portability.importBlog(JSON.stringify(document), OPTIONS);
      expect(report.warnings).toContain("page “About us” takes the place of this blog's edited “Mine”");
      const abouts = (await allPages(other)).filter((page) => page.builtIn === "about");
      expect(abouts.map((page) => [page.id, page.title, page.slug])).toEqual([
        ["about-from-elsewhere", "About us", "about-us"],
      ]);
      expect(await isPublic(other, "about-us")).toBe(true);
    });
  });

  it("records the uploaded images a page of the .zip export shows as in use", async () => {
    const { services } = blog;
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#2a6f97" } })
      .png()
      .toBuffer();
    const image = await services.media.upload({ bytes, name: "team.png", declaredType: "image/png", uploadedBy: "a" });
    const page = await services.pages.createPage(
      input({ title: "Team", content: `![The team](${image.url})`, published: true }),
      WRITER,
    );
    const directory = mkdtempSync(path.join(tmpdir(), "inkwell-pages-"));
    try {
      const file = path.join(directory, "blog.zip");
      const chunks: Buffer[] = [];
      for await (const chunk of services.portability.exportArchive()) chunks.push(Buffer.from(chunk as Uint8Array));
      writeFileSync(file, Buffer.concat(chunks));
      await withEmptyBlog(blog, async (other, db) => {
        await other.portability.importArchive(file, OPTIONS);
        expect((await other.pages.getPublicPage("team")).contentHtml).toContain(image.hash);
        expect(await db.selectFrom("page_media_uses").select(["hash", "page_id"]).execute()).toEqual([
          { hash: image.hash, page_id: page.id },
        ]);
      });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
