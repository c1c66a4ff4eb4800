import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_OPTIONS, type ImportOptions } from "#domain/portability.ts";
import { findUnclassifiedColumns } from "../../server/portability/repositories/portability.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createPosts, TEST_PASSWORD_COST } from "../support/factories.ts";
import { ghostExport, ghostPost } from "../support/ghost-export.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");
const schema = JSON.parse(readFileSync(new URL("../../docs/export-format.schema.json", import.meta.url), "utf8"));

interface ExportDocument {
  exportedAt: string;
  site: Record<string, unknown>;
  posts: Record<string, unknown>[];
  comments: Record<string, unknown>[];
  revisions: Record<string, unknown>[];
  users: Record<string, unknown>[];
  importSources: Record<string, unknown>[];
}

async function exportOf(services: Services): Promise<ExportDocument> {
  let text = "";
  for await (const chunk of services.portability.exportBlog()) text += chunk;
  return JSON.parse(text) as ExportDocument;
}

function byTitle(document: ExportDocument, title: string) {
  const post = document.posts.find((candidate) => candidate.title === title);
  if (!post) throw new Error(`no post titled ${title}`);
  return post;
}

/** A WordPress export of the given `<item>`s, as WordPress writes its channel. */
function wordpressExport(items: string[]): string {
  const wordpress = fixture("wordpress-export.xml");
  return `${wordpress.slice(0, wordpress.indexOf("<item>"))}${items.join("\n")}\n</channel>\n</rss>\n`;
}

/** One WordPress post; `extra` holds further elements (categories, comments, a password). */
function wordpressPost(id: number, title: string, fields: { status?: string; date?: string; extra?: string } = {}) {
  return `<item>
    <title><![CDATA[${title}]]></title>
    <dc:creator><![CDATA[jdoe]]></dc:creator>
    <content:encoded><![CDATA[<p>Body of ${title}.</p>]]></content:encoded>
    <wp:post_id>${id}</wp:post_id>
    <wp:post_date_gmt><![CDATA[${fields.date ?? "2025-01-20 09:00:00"}]]></wp:post_date_gmt>
    <wp:status><![CDATA[${fields.status ?? "publish"}]]></wp:status>
    <wp:post_type><![CDATA[post]]></wp:post_type>
    ${fields.extra ?? ""}
  </item>`;
}

const OPTIONS: ImportOptions = {
  ...DEFAULT_IMPORT_OPTIONS,
  categoryMap: { woodworking: "Tutorials", Performance: "Development" },
  defaultCategory: "Technology",
};

describe.each(testDialects())("export and import on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("exports every column of every table, or leaves it out on purpose", async () => {
    expect(await findUnclassifiedColumns(blog.handle.db)).toEqual([]);
  });

  it("writes an export that follows the documented schema and re-imports into an empty blog identically", async () => {
    const { services, clock } = blog;
    const [first, second] = await createPosts(services, clock, [
      { title: "Entities & “quotes”", tags: ["One", "two", "Drei"], content: "<p>5 &lt; 6 — 日本語</p>" },
      { title: "A draft", published: false, category: "Design", commentsClosed: true },
    ]);
    await services.comments.addComment(first!.id, { author: "Zoë", content: "First!" });
    await services.comments.saveSettings({ holdAll: true, blocklist: "casino", closeAfterDays: 30 });
    await services.auth.ensureAdmin("owner@example.com", "a long enough password");
    expect(second).toBeDefined();

    const exported = await exportOf(services);
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(exported), JSON.stringify(validate.errors)).toBe(true);
    expect(JSON.stringify(exported)).not.toContain("scrypt");
    expect(exported.posts).toHaveLength(2);
    expect(exported.comments).toMatchObject([{ author: "Zoë", content: "First!", status: "approved" }]);
    // Each save kept a revision; they travel with their posts.
    expect(exported.revisions).toHaveLength(2);
    expect(exported.revisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ postId: first!.id, number: 1, kind: "save" }),
        expect.objectContaining({ postId: second!.id, number: 1, kind: "save" }),
      ]),
    );

    const target = await createTestDatabase(dialect);
    try {
      const other = createServices({
        db: target.db,
        dialect,
        now: clock.now,
        passwordCost: TEST_PASSWORD_COST,
        commentIpSalt: TEST_COMMENT_IP_SALT,
      });
      let text = "";
      for await (const chunk of services.portability.exportBlog()) text += chunk;
      const report = await other.portability.importBlog(text, DEFAULT_IMPORT_OPTIONS);
      expect(report.created).toEqual({ posts: 2, comments: 1, pages: 0, settings: 1 });
      expect(report.warnings).toEqual([expect.stringContaining("1 users not imported")]);
      const reimported = await exportOf(other);
      expect({ ...reimported, users: [] }).toEqual({ ...exported, users: [] });
      expect((await other.posts.listPublishedPosts("日本語")).items.map((post) => post.title)).toEqual([
        "Entities & “quotes”",
      ]);

      const again = await other.portability.importBlog(text, DEFAULT_IMPORT_OPTIONS);
      expect(again.created).toEqual({ posts: 0, comments: 0, pages: 0, settings: 0 });
      expect(await exportOf(other)).toEqual(reimported);
    } finally {
      await target.close();
    }
  });

  it("carries the site settings and the admins' names and roles; an import drops the cached pages it changes", async () => {
    const { services } = blog;
    const settings = await services.siteSettings.current();
    await services.siteSettings.update({ ...settings, title: "Field Notes", postsPerPage: 7 }, { label: "owner" });
    await services.auth.ensureAdmin("owner@example.com", "a long enough password");
    let text = "";
    for await (const chunk of services.portability.exportBlog()) text += chunk;
    const exported = JSON.parse(text) as ExportDocument;
    expect(exported.site.siteSettings).toMatchObject({ title: "Field Notes", postsPerPage: 7 });
    expect(exported.users).toMatchObject([{ email: "owner@example.com", role: "owner" }]);
    expect(JSON.stringify(exported.users)).not.toMatch(/totp|password/i);

    const target = await createTestDatabase(dialect);
    try {
      const other = createServices({
        db: target.db,
        dialect,
        now: blog.clock.now,
        passwordCost: TEST_PASSWORD_COST,
        commentIpSalt: TEST_COMMENT_IP_SALT,
      });
      const announced: string[][] = [];
      other.changes.subscribe((tags) => announced.push(tags));
      await createPosts(services, blog.clock, [{ title: "Moving day" }]);
      let withPost = "";
      for await (const chunk of services.portability.exportBlog()) withPost += chunk;
      const report = await other.portability.importBlog(withPost, DEFAULT_IMPORT_OPTIONS);
      expect(report.created).toMatchObject({ posts: 1, settings: 1 });
      expect((await other.siteSettings.current()).title).toBe("Field Notes");
      const [imported] = (await exportOf(other)).posts;
      expect(announced).toEqual([["lists", `post:${String(imported?.id)}`]]);

      const again = await other.portability.importBlog(withPost, DEFAULT_IMPORT_OPTIONS);
      expect(again.skipped).toContainEqual({ item: "site settings", reason: "this blog has its own" });
      expect(announced).toHaveLength(1);
    } finally {
      await target.close();
    }
  });

  it("keeps Ghost and WordPress slugs, and gives a taken one the next free address", async () => {
    const { services } = blog;
    await createPosts(services, blog.clock, [{ title: "Caching at the edge" }]);
    await services.portability.importBlog(fixture("ghost-export.json"), OPTIONS);
    await services.portability.importBlog(fixture("wordpress-export.xml"), OPTIONS);
    const slugs = Object.fromEntries((await exportOf(services)).posts.map((post) => [post.title, post.slug]));
    expect(slugs).toMatchObject({
      "Caching at the edge": "caching-at-the-edge",
      "Caching at the edge: a field guide": "caching-at-the-edge-2",
      "Ünïcödé naïveté — 日本語のタイトル 🚀": "unicode-naivete",
      'Sharpening chisels – the "scary sharp" way': "sharpening-chisels",
    });
  });

  it("imports a Ghost export: titles, bodies through the sanitiser, dates, tags, authors and drafts", async () => {
    const { services } = blog;
    const report = await services.portability.importBlog(fixture("ghost-export.json"), OPTIONS);
    expect(report.created).toEqual({ posts: 3, comments: 0, pages: 1, settings: 0 });
    expect(report.skipped).toEqual([]);
    expect(report.warnings).toEqual(
      expect.arrayContaining([
        "Ghost data not imported: newsletters",
        expect.stringContaining("has no date"),
        "1 images are left as links to their original site",
        "Ghost post 65f1a0c2e4b0a1b2c3d4e5f3 has a cover image this blog cannot show (__GHOST_URL__/content/images/2025/03/photo.jpg); it has no cover until you set one in the editor",
        "1 images or links in post bodies point at the Ghost site's own files (__GHOST_URL__/…); they will not work here until those files are copied and the addresses changed",
      ]),
    );

    const document = await exportOf(services);
    const edge = byTitle(document, "Caching at the edge: a field guide");
    expect(edge).toMatchObject({
      author: "Grace Hopper",
      category: "Development",
      published: 1,
      createdAt: "2025-01-11T07:15:00.000Z",
      updatedAt: "2025-01-12T09:30:00.000Z",
      tags: ["Performance", "CDN"],
      excerpt: "Where a CDN helps, and where it hides bugs.",
      coverImage: "https://images.example.net/cover-edge.jpg",
    });
    expect(edge.content).toContain("Put a CDN in front &amp; measure — then decide.");
    expect(edge.content).not.toContain("<script");
    expect(byTitle(document, "Ünïcödé naïveté — 日本語のタイトル 🚀")).toMatchObject({
      published: 0,
      category: "Technology",
      author: "Ada Lovelace",
    });
    expect(byTitle(document, "Untitled").content).toBe("<p>A post nobody named.</p>");

    const again = await services.portability.importBlog(fixture("ghost-export.json"), OPTIONS);
    expect(again.created.posts).toBe(0);
    expect((await exportOf(services)).posts).toHaveLength(3);
  });

  it("imports a WordPress export: entities and CDATA, comments with their status, pages only once", async () => {
    const { services } = blog;
    const report = await services.portability.importBlog(fixture("wordpress-export.xml"), OPTIONS);
    expect(report.created).toEqual({ posts: 3, comments: 3, pages: 1, settings: 0 });
    expect(report.skipped.map((skip) => skip.item)).toEqual(["“chisel.jpg”", "“Old rant”"]);
    expect(report.warnings).toContain("1 pingbacks and trackbacks left out");

    const document = await exportOf(services);
    const chisels = byTitle(document, 'Sharpening chisels – the "scary sharp" way');
    expect(chisels).toMatchObject({
      author: "Jane Doe",
      category: "Tutorials",
      published: 1,
      createdAt: "2025-01-20T09:00:00.000Z",
      tags: ["Hand tools"],
    });
    expect(chisels.content).toMatch(/^<p>Start with 400 grit &amp; work up to 8000.<\/p>/);
    expect(chisels.content).not.toContain("script");
    const comments = document.comments.filter((comment) => comment.postId === chisels.id);
    expect(comments.map((comment) => [comment.author, comment.status]).sort()).toEqual([
      ["Bob & Alice", "approved"],
      ["Cheap Pills", "spam"],
      ["Zoë", "pending"],
    ]);
    expect((await services.comments.listPublicComments(String(chisels.id))).items).toMatchObject([
      { author: "Bob & Alice", content: "Great tip! My blog", createdAt: "2025-01-20T10:30:00.000Z" },
    ]);
    expect(byTitle(document, "Draft: a bench for the garage")).toMatchObject({ published: 0 });

    const asPosts = await services.portability.importBlog(fixture("wordpress-export.xml"), {
      ...OPTIONS,
      pages: "posts",
    });
    // The page came in as a page the first time; asking for posts does not bring it in twice.
    expect(asPosts.created).toEqual({ posts: 0, comments: 0, pages: 0, settings: 0 });
    expect(asPosts.skipped).toContainEqual({ item: "“About the workshop”", reason: "imported before" });
  });

  it("imports private writing as a draft and says so per post: WordPress password-protected and private posts, Ghost posts for members", async () => {
    const { services } = blog;
    const wordpress = await services.portability.importBlog(
      wordpressExport([
        wordpressPost(1, "Open letter"),
        wordpressPost(2, "Protected", { extra: "<wp:post_password><![CDATA[hunter2]]></wp:post_password>" }),
        wordpressPost(3, "Diary", { status: "private" }),
      ]),
      OPTIONS,
    );
    expect(wordpress.created.posts).toBe(3);
    expect(wordpress.warnings).toEqual(
      expect.arrayContaining([
        "“Protected” was password-protected in WordPress: imported as a draft",
        "“Diary” was private in WordPress: imported as a draft",
      ]),
    );
    const ghost = await services.portability.importBlog(
      ghostExport([
        ghostPost("g1", "For everyone"),
        ghostPost("g2", "For members", { visibility: "members" }),
        ghostPost("g3", "For paying members", { visibility: "paid" }),
        ghostPost("g4", "For some tiers", { visibility: "tiers" }),
      ]),
      OPTIONS,
    );
    expect(ghost.warnings).toEqual(
      expect.arrayContaining([
        "“For members” was for members only in Ghost: imported as a draft",
        "“For paying members” was for paying members only in Ghost: imported as a draft",
        "“For some tiers” was for members of some tiers only in Ghost: imported as a draft",
      ]),
    );
    const published = Object.fromEntries((await exportOf(services)).posts.map((post) => [post.title, post.published]));
    expect(published).toEqual({
      "Open letter": 1,
      Protected: 0,
      Diary: 0,
      "For everyone": 1,
      "For members": 0,
      "For paying members": 0,
      "For some tiers": 0,
    });
    expect((await services.posts.listPublishedPosts("body")).items.map((post) => post.title).sort()).toEqual([
      "For everyone",
      "Open letter",
    ]);
  });

  it("keeps comments closed where WordPress closed them, and on every post of a Ghost site whose comments were off", async () => {
    const { services } = blog;
    await services.portability.importBlog(
      wordpressExport([
        wordpressPost(1, "Open to all", { extra: "<wp:comment_status><![CDATA[open]]></wp:comment_status>" }),
        wordpressPost(2, "Closed", { extra: "<wp:comment_status><![CDATA[closed]]></wp:comment_status>" }),
      ]),
      OPTIONS,
    );
    const ghost = await services.portability.importBlog(
      ghostExport(
        [ghostPost("g1", "Ghost post")],
        [{ id: "s1", group: "comments", key: "comments_enabled", value: "off", type: "string" }],
      ),
      OPTIONS,
    );
    expect(ghost.warnings).toContain(
      "Comments were off on the Ghost site: its posts are imported with comments closed",
    );
    const closed = Object.fromEntries(
      (await exportOf(services)).posts.map((post) => [post.title, post.commentsClosed]),
    );
    expect(closed).toEqual({ "Open to all": 0, Closed: 1, "Ghost post": 1 });
    const post = (await exportOf(services)).posts.find((candidate) => candidate.title === "Closed");
    await expect(services.comments.addComment(String(post?.id), { author: "A", content: "Hello" })).rejects.toThrow();
  });

  it("keeps WordPress future and Ghost scheduled posts scheduled at their time", async () => {
    const { services, clock } = blog;
    await services.portability.importBlog(
      wordpressExport([wordpressPost(1, "Coming in April", { status: "future", date: "2026-04-01 09:00:00" })]),
      OPTIONS,
    );
    await services.portability.importBlog(
      ghostExport([
        ghostPost("g1", "Ghost in April", { status: "scheduled", published_at: "2026-04-02T08:00:00.000Z" }),
      ]),
      OPTIONS,
    );
    const scheduled = (await exportOf(services)).posts.map((post) => [post.title, post.published, post.publishAt]);
    expect(scheduled.sort()).toEqual([
      ["Coming in April", 1, "2026-04-01T09:00:00.000Z"],
      ["Ghost in April", 1, "2026-04-02T08:00:00.000Z"],
    ]);
    expect((await services.posts.listPublishedPosts()).items).toEqual([]);
    clock.advance(Date.parse("2026-04-01T09:00:00.000Z") - clock.now().getTime());
    expect((await services.posts.listPublishedPosts()).items.map((post) => post.title)).toEqual(["Coming in April"]);
    clock.advance(24 * 60 * 60 * 1000);
    expect((await services.posts.listPublishedPosts()).items.map((post) => post.title)).toEqual([
      "Ghost in April",
      "Coming in April",
    ]);
  });

  it("says what it left out: tags beyond the limit, WordPress shortcodes, pingbacks and trackbacks", async () => {
    const { services } = blog;
    const tags = Array.from(
      { length: 45 },
      (_, index) => `<category domain="post_tag" nicename="t${index}"><![CDATA[Tag ${index}]]></category>`,
    );
    const pings = ["pingback", "trackback", "pingback"].map(
      (type, index) => `<wp:comment>
        <wp:comment_id>${100 + index}</wp:comment_id>
        <wp:comment_author><![CDATA[Other blog]]></wp:comment_author>
        <wp:comment_content><![CDATA[linked]]></wp:comment_content>
        <wp:comment_approved><![CDATA[1]]></wp:comment_approved>
        <wp:comment_type><![CDATA[${type}]]></wp:comment_type>
      </wp:comment>`,
    );
    const shortcodes = wordpressPost(2, "Shortcodes").replace(
      "<p>Body of Shortcodes.</p>",
      '[gallery ids="1,2,3"]\n\n[caption id="attachment_9" align="alignnone"]<img src="https://example.org/a.jpg"> A chisel[/caption]\n\n[embed]https://video.example.org/v/1[/embed]\n\nFootnote [1] and [note to self] stay quiet.',
    );
    const report = await services.portability.importBlog(
      wordpressExport([wordpressPost(1, "Tagged", { extra: [...tags, ...pings].join("\n") }), shortcodes]),
      OPTIONS,
    );
    expect(report.created).toMatchObject({ posts: 2, comments: 0 });
    expect(report.warnings).toEqual(
      expect.arrayContaining([
        "“Tagged” had 45 tags; the first 20 are kept, 25 left out",
        "“Shortcodes” keeps WordPress shortcodes as text: [caption], [embed], [gallery]",
        "3 pingbacks and trackbacks left out",
      ]),
    );
    expect(report.warnings.filter((warning) => warning.includes("shortcodes"))).toHaveLength(1);
    expect(byTitle(await exportOf(services), "Tagged").tags).toHaveLength(20);

    const ghost = await services.portability.importBlog(
      JSON.stringify({
        db: [
          {
            meta: {},
            data: {
              posts: [ghostPost("g1", "Ghost tagged")],
              tags: Array.from({ length: 25 }, (_, index) => ({ id: `t${index}`, name: `Topic ${index}` })),
              posts_tags: Array.from({ length: 25 }, (_, index) => ({
                post_id: "g1",
                tag_id: `t${index}`,
                sort_order: index,
              })),
            },
          },
        ],
      }),
      OPTIONS,
    );
    expect(ghost.warnings).toContain("“Ghost tagged” had 25 tags; the first 20 are kept, 5 left out");
  });

  it("says which posts of a JSON export show uploaded images this blog does not have", async () => {
    const { services } = blog;
    const hash = "a".repeat(64);
    const document = {
      format: "inkwell-export",
      version: 1,
      exportedAt: "2026-03-01T00:00:00.000Z",
      site: {},
      posts: [
        {
          ...(await exportOfOnePost(services)),
          id: "with-pictures",
          title: "With pictures",
          content: `<p><img src="/media/${hash}/original.jpg"><img src="/media/${hash}/640.webp"><img src="/media/${"b".repeat(64)}/original.png"></p>`,
        },
        { ...(await exportOfOnePost(services)), id: "plain", title: "Plain" },
      ],
      comments: [],
      revisions: [],
      users: [],
      importSources: [],
    };
    const report = await services.portability.importBlog(JSON.stringify(document), OPTIONS);
    expect(report.created.posts).toBe(2);
    expect(report.warnings).toEqual([
      "“With pictures” shows 2 uploaded images this blog does not have (/media/…): import the .zip export, which carries them",
    ]);
  });

  it("imports 1,500 posts of one timestamp, and search still lists newest first", async () => {
    const { services, handle } = blog;
    const at = "2025-06-01T00:00:00.000Z";
    const tied = Array.from({ length: 1500 }, (_, index) =>
      ghostPost(`tied-${index}`, `Tied ${index}`, { created_at: at, published_at: at }),
    );
    expect((await services.portability.importBlog(ghostExport(tied), OPTIONS)).created.posts).toBe(1500);
    // A millisecond either side of the crowded one, written after it.
    await services.portability.importBlog(
      ghostExport([
        ghostPost("after", "Just after", { published_at: "2025-06-01T00:00:00.001Z" }),
        ghostPost("before", "Just before", { published_at: "2025-05-31T23:59:59.999Z" }),
      ]),
      OPTIONS,
    );
    const first = await services.posts.listPublishedPosts("body of", 1, 10);
    expect(first.total).toBe(1502);
    expect(first.items[0]?.title).toBe("Just after");
    const last = await services.posts.listPublishedPosts("body of", 151, 10);
    expect(last.items.map((post) => post.title)).toEqual([expect.stringMatching(/^Tied /), "Just before"]);
    // The search keys sort exactly as the posts' times do.
    const keyed = await handle.db
      .selectFrom("posts")
      .select(["search_key", "created_at"])
      .where("search_key", "is not", null)
      .orderBy("search_key")
      .execute();
    const times = keyed.map((row) => new Date(row.created_at).getTime());
    expect(times).toHaveLength(1502);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }, 60_000);

  it("drops control characters from every imported text, ids included, as from a form", async () => {
    const { services } = blog;
    const ghost = fixture("ghost-export.json")
      .replace('"id": "65f1a0c2e4b0a1b2c3d4e5f1"', '"id": "65f1a0c2\\u0000e4b0a1b2c3d4e5f1"')
      .replace('"title": "Caching at the edge: a field guide"', '"title": "Caching\\u0000 at the edge\\u0007"');
    const wordpress = fixture("wordpress-export.xml").replace(
      "<wp:post_id>42</wp:post_id>",
      "<wp:post_id>4\u00002</wp:post_id>",
    );
    expect((await services.portability.importBlog(ghost, OPTIONS)).created.posts).toBe(3);
    expect((await services.portability.importBlog(wordpress, OPTIONS)).created.posts).toBeGreaterThan(0);
    const titles = (await exportOf(services)).posts.map((post) => post.title);
    expect(titles).toContain("Caching at the edge");
    expect([...titles.join("")].filter((char) => char.charCodeAt(0) < 0x20)).toEqual([]);
  });

  it("refuses bad input with a clear message and changes nothing", async () => {
    const { services } = blog;
    const wordpress = fixture("wordpress-export.xml");
    const ghost = fixture("ghost-export.json");
    const attempts: [string, RegExp][] = [
      ["hello, world", /neither JSON nor XML/],
      ['{"format":"inkwell-export","version":7}', /version 7 Inkwell export; this blog reads version 1/],
      [ghost.slice(0, ghost.length / 2), /not complete JSON.*cut short/],
      [wordpress.slice(0, wordpress.length - 400), /not well-formed XML.*cut short/],
      ['{"some":"thing"}', /Unknown JSON export/],
      ["<html><body>not a feed</body></html>", /not a WordPress export/],
      [
        wordpress
          .replace("<rss", '<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<rss')
          .replace(
            "<wp:post_id>42</wp:post_id>",
            "<wp:post_id>42</wp:post_id><wp:post_password>&xxe;</wp:post_password>",
          ),
        /declares entities/,
      ],
      [
        wordpress.replace("<rss", '<!DOCTYPE rss [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>\n<rss'),
        /declares entities/,
      ],
    ];
    for (const [input, message] of attempts) {
      const refusal = services.portability.importBlog(input, OPTIONS);
      await expect(refusal).rejects.toThrow(message);
      await expect(refusal).rejects.toMatchObject({ code: "IMPORT_REFUSED" });
    }
    const before = await exportOf(services);
    // A comment whose status we do not know fails after its post was written: the post must not stay.
    const halfBad = JSON.stringify({
      ...before,
      posts: [{ ...(await exportOfOnePost(services)), id: "new-post" }],
      comments: [
        {
          id: "c1",
          postId: "new-post",
          author: "A",
          content: "B",
          createdAt: before.exportedAt,
          status: "odd",
          heldReason: null,
        },
      ],
    });
    await expect(services.portability.importBlog(halfBad, OPTIONS)).rejects.toThrow(/unknown status/);
    expect({ ...(await exportOf(services)), exportedAt: "" }).toEqual({ ...before, exportedAt: "" });
  });

  it("refuses rows of its own format that lack what a post or comment needs, and changes nothing", async () => {
    const { services } = blog;
    const before = await exportOf(services);
    const { content: _content, ...postWithoutContent } = await exportOfOnePost(services);
    const comment = { id: "c1", postId: "whole", content: "B", createdAt: before.exportedAt, status: "approved" };
    const attempts: [Record<string, unknown>, RegExp][] = [
      [{ posts: [{ ...postWithoutContent, id: "no-content" }] }, /posts\[0\]\.content is missing/],
      [
        { posts: [{ ...(await exportOfOnePost(services)), id: "whole" }], comments: [comment] },
        /comments\[0\]\.author is missing/,
      ],
    ];
    for (const [sections, message] of attempts) {
      const refusal = services.portability.importBlog(JSON.stringify({ ...before, ...sections }), OPTIONS);
      await expect(refusal).rejects.toThrow(message);
      await expect(refusal).rejects.toMatchObject({ code: "IMPORT_REFUSED" });
    }
    expect({ ...(await exportOf(services)), exportedAt: "" }).toEqual({ ...before, exportedAt: "" });
  });
});

async function exportOfOnePost(services: Services): Promise<Record<string, unknown>> {
  return {
    title: "Half",
    content: "<p>x</p>",
    excerpt: "x",
    author: "A",
    coverImage: "",
    category: "Design",
    published: 1,
    commentsClosed: 0,
    createdAt: (await exportOf(services)).exportedAt,
    updatedAt: "2026-01-01T00:00:00.000Z",
    tags: [],
  };
}
