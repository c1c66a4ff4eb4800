import { beforeEach, describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { createMigrator, migrateToLatest } from "../../server/kernel/db/migrate.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";
import { buildPostInput, createPosts, TEST_WRITER } from "../support/factories.ts";

describe.each(testDialects())("posts on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("never shows a draft on any public surface", async () => {
    const [published, draft] = await createPosts(blog.services, blog.clock, [
      { title: "Visible lighthouse", category: "Design", tags: ["lamps"] },
      { title: "Secret lighthouse", category: "Design", tags: ["lamps"], published: false },
    ]);
    const draftId = draft!.id;
    const visibleIds = (posts: { id: string }[]) => posts.map((post) => post.id);

    expect(visibleIds((await blog.services.posts.listPublishedPosts()).items)).toEqual([published!.id]);
    expect(visibleIds((await blog.services.posts.listPublishedPosts("lighthouse")).items)).toEqual([published!.id]);
    expect(visibleIds((await blog.services.posts.listPublishedPosts("lamps")).items)).toEqual([published!.id]);
    expect(visibleIds((await blog.services.posts.listCategoryPosts("Design")).items)).toEqual([published!.id]);
    const home = await blog.services.posts.getHomePage();
    expect(home.featured?.id).toBe(published!.id);
    expect(home.categories.flatMap((section) => visibleIds(section.posts))).not.toContain(draftId);
    expect(await blog.services.posts.summariseCategories()).toEqual([
      { category: "Design", postCount: 1, firstExcerpt: published!.excerpt },
    ]);
    const { related } = await blog.services.posts.getPublicPost(published!.id);
    expect(visibleIds(related)).not.toContain(draftId);
    await expect(blog.services.posts.getPublicPost(draftId)).rejects.toSatisfy((error) =>
      isDomainError(error, "POST_NOT_AVAILABLE"),
    );
  });

  it("lists published posts newest first", async () => {
    const created = await createPosts(blog.services, blog.clock, [{}, {}, {}]);
    const listed = (await blog.services.posts.listPublishedPosts()).items;
    expect(listed.map((post) => post.id)).toEqual(created.map((post) => post.id).reverse());
  });

  it("builds the home page: featured, the next six, and three per category", async () => {
    const created = await createPosts(
      blog.services,
      blog.clock,
      Array.from({ length: 10 }, (_, index) => ({ category: index % 2 === 0 ? "Business" : "Design" })),
    );
    const newestFirst = created.map((post) => post.id).reverse();
    const home = await blog.services.posts.getHomePage();
    expect(home.featured?.id).toBe(newestFirst[0]);
    expect(home.latest.map((post) => post.id)).toEqual(newestFirst.slice(1, 7));
    expect(home.categories.map((section) => [section.category, section.posts.length])).toEqual([
      ["Business", 3],
      ["Design", 3],
    ]);
    const business = home.categories.find((section) => section.category === "Business")!;
    expect(business.posts.map((post) => post.id)).toEqual(
      created
        .filter((post) => post.category === "Business")
        .map((post) => post.id)
        .reverse()
        .slice(0, 3),
    );
  });

  describe("search", () => {
    beforeEach(async () => {
      await createPosts(blog.services, blog.clock, [
        { title: "Typing TypeScript fast", content: "<p>Generics and <strong>inference</strong>.</p>", tags: ["ts"] },
        { title: "Colour theory", content: "<p>Contrast matters: 100% of readers agree.</p>", tags: ["Accessibility"] },
        { title: "Pricing work", content: "<p>Charge for value_based outcomes.</p>", tags: ["freelance"] },
      ]);
    });
    const titlesFor = async (query: string) =>
      (await blog.services.posts.listPublishedPosts(query)).items.map((post) => post.title);

    it("matches title, content text and tags, ignoring case", async () => {
      expect(await titlesFor("typescript")).toEqual(["Typing TypeScript fast"]);
      expect(await titlesFor("INFERENCE")).toEqual(["Typing TypeScript fast"]);
      expect(await titlesFor("accessib")).toEqual(["Colour theory"]);
    });

    it("does not match markup, only text", async () => {
      expect(await titlesFor("strong")).toEqual([]);
    });

    it("answers queries shorter than a trigram", async () => {
      expect(await titlesFor("ts")).toEqual(["Typing TypeScript fast"]);
      expect(await titlesFor("%")).toEqual(["Colour theory"]);
      expect(await titlesFor("_")).toEqual(["Pricing work"]);
    });

    it("treats SQL and pattern metacharacters literally", async () => {
      expect(await titlesFor("100%")).toEqual(["Colour theory"]);
      expect(await titlesFor("value_based")).toEqual(["Pricing work"]);
      expect(await titlesFor("e_b")).toEqual(["Pricing work"]);
      for (const query of ["' or 1=1 --", '"quoted"', "back\\slash", "a*b", "(x|y)", "NEAR(a b)", "é中文🙂"]) {
        expect(await titlesFor(query)).toEqual([]);
      }
    });

    it("copes with a 10,000-character query", async () => {
      expect(await titlesFor("x".repeat(10_000))).toEqual([]);
    });

    it("pages matches newest first and counts them all, through every publish, unpublish and delete", async () => {
      const lanterns = await createPosts(
        blog.services,
        blog.clock,
        Array.from({ length: 7 }, (_, index) => ({ title: `Lantern ${index}` })),
      );
      // Two posts written in the same millisecond both get a search row of their own.
      blog.clock.advance(60_000);
      const twins = [
        await blog.services.posts.createPost(buildPostInput({ title: "Twin lantern A" }), TEST_WRITER),
        await blog.services.posts.createPost(buildPostInput({ title: "Twin lantern B" }), TEST_WRITER),
      ];
      const page = async (number: number) => {
        const result = await blog.services.posts.listPublishedPosts("lantern", number, 4);
        return { total: result.total, titles: result.items.map((post) => post.title) };
      };
      const first = await page(1);
      expect(first.total).toBe(9);
      expect(first.titles.slice(0, 2).sort()).toEqual(["Twin lantern A", "Twin lantern B"]);
      expect(first.titles.slice(2)).toEqual(["Lantern 6", "Lantern 5"]);
      expect(await page(3)).toEqual({ total: 9, titles: ["Lantern 0"] });

      const unpublished = lanterns[5]!;
      await blog.services.posts.updatePost(
        unpublished.id,
        buildPostInput({ title: unpublished.title, published: false }),
        TEST_WRITER,
      );
      expect((await page(1)).titles.slice(2)).toEqual(["Lantern 6", "Lantern 4"]);
      expect((await page(1)).total).toBe(8);
      await blog.services.posts.updatePost(unpublished.id, buildPostInput({ title: unpublished.title }), TEST_WRITER);
      expect(await page(1)).toMatchObject({ total: 9, titles: expect.arrayContaining(["Lantern 6", "Lantern 5"]) });

      await blog.services.posts.deletePost(twins[0]!.id);
      await blog.services.posts.deletePost(lanterns[0]!.id);
      expect(await page(3)).toEqual({ total: 7, titles: [] });
      expect((await page(2)).titles).toEqual(["Lantern 3", "Lantern 2", "Lantern 1"]);
    });

    it("gives published posts written before search keys their rows, in list order, on migration", async () => {
      const { db } = blog.handle;
      const { error } = await createMigrator(db, dialect).migrateTo("0010-public-list-indexes");
      expect(error).toBeUndefined();
      const legacy = db as unknown as import("kysely").Kysely<{
        posts: Record<string, string | number>;
        post_search: { post_id: string; search_text: string };
      }>;
      const row = (id: string, published: number, createdAt: string) => ({
        id,
        slug: id,
        title: `Heron ${id}`,
        format: "html",
        content: "<p>Body</p>",
        content_html: "<p>Body</p>",
        reading_minutes: 1,
        excerpt: "Excerpt",
        author: "Ada",
        cover_image: "https://images.example.com/c.jpg",
        category: "Design",
        published,
        created_at: createdAt,
        updated_at: createdAt,
      });
      await legacy
        .insertInto("posts")
        .values([
          row("older", 1, "2024-01-01T00:00:00.000Z"),
          row("twin-a", 1, "2024-02-01T00:00:00.000Z"),
          row("twin-b", 1, "2024-02-01T00:00:00.000Z"),
          row("draft", 0, "2024-03-01T00:00:00.000Z"),
        ])
        .execute();
      await legacy
        .insertInto("post_search")
        .values(["older", "twin-a", "twin-b", "draft"].map((id) => ({ post_id: id, search_text: `Heron ${id}` })))
        .execute();

      // Every migration after 0010 runs, in order: 0011 and any added since.
      const later = (await createMigrator(db, dialect).getMigrations())
        .map((migration) => migration.name)
        .filter((name) => name > "0010-public-list-indexes");
      expect(later[0]).toBe("0011-search-in-list-order");
      expect(await migrateToLatest(db, dialect)).toEqual(later);
      const found = await blog.services.posts.listPublishedPosts("heron");
      expect(found.total).toBe(3);
      expect(found.items.map((post) => post.id)).toEqual(["twin-b", "twin-a", "older"]);
      expect(await db.selectFrom("post_search").select("post_id").where("post_id", "=", "draft").execute()).toEqual([]);
      expect((await blog.services.posts.listPublishedPosts("typescript")).total).toBe(1);
    });
  });

  it("summarises categories by count, with the newest post's excerpt", async () => {
    await createPosts(blog.services, blog.clock, [
      { category: "Design", excerpt: "older design" },
      { category: "Business", excerpt: "only business" },
      { category: "Design", excerpt: "newest design" },
    ]);
    expect(await blog.services.posts.summariseCategories()).toEqual([
      { category: "Design", postCount: 2, firstExcerpt: "newest design" },
      { category: "Business", postCount: 1, firstExcerpt: "only business" },
    ]);
  });

  it("lists the published posts of one category", async () => {
    const [design] = await createPosts(blog.services, blog.clock, [{ category: "Design" }, { category: "Business" }]);
    const posts = (await blog.services.posts.listCategoryPosts("Design")).items;
    expect(posts.map((post) => post.id)).toEqual([design!.id]);
  });

  it("picks up to three related posts of the same category, never the post itself", async () => {
    const created = await createPosts(blog.services, blog.clock, [
      ...Array.from({ length: 5 }, () => ({ category: "Tutorials" as const })),
      { category: "Business" },
    ]);
    const current = created[0]!;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { related } = await blog.services.posts.getPublicPost(current.id);
      expect(related).toHaveLength(3);
      for (const post of related) {
        expect(post.category).toBe("Tutorials");
        expect(post.id).not.toBe(current.id);
      }
    }
  });

  it("sets both timestamps on create and only updatedAt on update", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ tags: [" css ", "CSS", "", "grid"] }]);
    expect(post!.createdAt).toBe(blog.clock.now().toISOString());
    expect(post!.updatedAt).toBe(post!.createdAt);
    expect(post!.tags).toEqual(["css", "grid"]);

    blog.clock.advance(3_600_000);
    const updated = await blog.services.posts.updatePost(
      post!.id,
      {
        ...post!,
        category: "Design",
        title: "Renamed",
        tags: ["grid", "layout"],
        published: false,
        publishAt: "",
        publishAtOffset: "",
        emailSubscribers: false,
      },
      TEST_WRITER,
    );
    expect(updated.title).toBe("Renamed");
    expect(updated.createdAt).toBe(post!.createdAt);
    expect(updated.updatedAt).toBe(blog.clock.now().toISOString());
    expect(updated.tags).toEqual(["grid", "layout"]);
    expect((await blog.services.posts.listPublishedPosts("renamed")).items).toEqual([]);
    expect((await blog.services.posts.listAllPosts("renamed")).items.map((found) => found.id)).toEqual([post!.id]);
  });

  it("filters the admin list by title, author or category, ignoring case", async () => {
    await createPosts(blog.services, blog.clock, [
      { title: "Alpha", author: "Grace", category: "Design" },
      { title: "Beta", author: "Linus", category: "Business", published: false },
    ]);
    const titles = async (filter: string) =>
      (await blog.services.posts.listAllPosts(filter)).items.map((post) => post.title);
    expect(await titles("")).toEqual(["Beta", "Alpha"]);
    expect(await titles("alp")).toEqual(["Alpha"]);
    expect(await titles("LINUS")).toEqual(["Beta"]);
    expect(await titles("design")).toEqual(["Alpha"]);
    expect(await titles("%")).toEqual([]);
  });

  it("deletes a post together with its comments", async () => {
    const [kept, doomed] = await createPosts(blog.services, blog.clock, [{}, {}]);
    await blog.services.comments.addComment(kept!.id, { author: "Ann", content: "Stays" });
    await blog.services.comments.addComment(doomed!.id, { author: "Bob", content: "Goes" });
    expect(await blog.services.posts.deletePost(doomed!.id)).toBe(true);
    expect(await blog.services.posts.deletePost(doomed!.id)).toBe(false);
    await expect(blog.services.posts.getPublicPost(doomed!.id)).rejects.toSatisfy((error) =>
      isDomainError(error, "POST_NOT_FOUND"),
    );
    const remaining = await blog.handle.db.selectFrom("comments").select("content").execute();
    expect(remaining).toEqual([{ content: "Stays" }]);
  });

  it("answers malformed and unknown ids with not found, without touching anything", async () => {
    for (const id of ["", "nope", "../etc/passwd", "x".repeat(500), "%00"]) {
      await expect(blog.services.posts.getPublicPost(id)).rejects.toSatisfy((error) =>
        isDomainError(error, "POST_NOT_FOUND"),
      );
    }
    expect(await blog.services.posts.deletePost("' or 1=1 --")).toBe(false);
  });

  it("sanitises post HTML before it is shown", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [
      {
        content:
          '<h2>Hi</h2><p onclick="steal()">Text <a href="javascript:alert(1)">bad</a> <a href="https://ok.example">ok</a></p><script>alert(1)</script><img src="x" onerror="alert(1)">',
      },
    ]);
    const { post: shown } = await blog.services.posts.getPublicPost(post!.id);
    expect(shown.contentHtml).toContain("<h2>Hi</h2>");
    expect(shown.contentHtml).toContain('<a href="https://ok.example">ok</a>');
    expect(shown.contentHtml).not.toMatch(/script|onclick|onerror|javascript:/);
  });
});
