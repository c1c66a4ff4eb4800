import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_OPTIONS, type ImportOptions } from "#domain/portability.ts";
import { findUnclassifiedColumns } from "../../server/repositories/portability.ts";
import { createServices, type Services } from "../../server/services/index.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createPosts, TEST_PASSWORD_COST } from "../support/factories.ts";
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
      expect(report.created).toEqual({ posts: 2, comments: 1, settings: 1 });
      expect(report.warnings).toEqual([expect.stringContaining("1 users not imported")]);
      const reimported = await exportOf(other);
      expect({ ...reimported, users: [] }).toEqual({ ...exported, users: [] });
      expect((await other.posts.listPublishedPosts("日本語")).items.map((post) => post.title)).toEqual([
        "Entities & “quotes”",
      ]);

      const again = await other.portability.importBlog(text, DEFAULT_IMPORT_OPTIONS);
      expect(again.created).toEqual({ posts: 0, comments: 0, settings: 0 });
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
    expect(report.created).toEqual({ posts: 3, comments: 0, settings: 0 });
    expect(report.skipped).toEqual([{ item: "“About me”", reason: expect.stringContaining("a page") }]);
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

  it("imports a WordPress export: entities and CDATA, comments with their status, pages only by option", async () => {
    const { services } = blog;
    const report = await services.portability.importBlog(fixture("wordpress-export.xml"), OPTIONS);
    expect(report.created).toEqual({ posts: 3, comments: 3, settings: 0 });
    expect(report.skipped.map((skip) => skip.item)).toEqual(["“About the workshop”", "“chisel.jpg”", "“Old rant”"]);

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
    expect((await services.posts.getPublicPost(String(chisels.id))).comments.items).toMatchObject([
      { author: "Bob & Alice", content: "Great tip! My blog", createdAt: "2025-01-20T10:30:00.000Z" },
    ]);
    expect(byTitle(document, "Draft: a bench for the garage")).toMatchObject({ published: 0 });

    const withPages = await services.portability.importBlog(fixture("wordpress-export.xml"), {
      ...OPTIONS,
      pages: "posts",
    });
    expect(withPages.created).toEqual({ posts: 1, comments: 0, settings: 0 });
    expect(byTitle(await exportOf(services), "About the workshop")).toMatchObject({ category: "Technology" });
  });

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
    ];
    for (const [input, message] of attempts) {
      await expect(services.portability.importBlog(input, OPTIONS)).rejects.toThrow(message);
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
