// Ghost's Content API lists at any size: tags and authors are walked a page at a time and a
// filtered list reads one past its page, so a page's statements do not grow with the posts;
// `meta.pagination` says what is known (docs/decisions/0034).
import { describe, expect, it } from "vitest";
import * as ghostRows from "../../server/apps/repositories/ghost.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { recordStatements } from "../support/statements.ts";
import { useTestBlog } from "../support/test-blog.ts";

describe.each(testDialects())("the Content API's tag, author and filtered lists on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("lists public tags and bylines a page at a time, never a draft's, with counts only when asked", async () => {
    await createPosts(blog.services, blog.clock, [
      { published: true, tags: ["Alpha", "Beta"], author: "Ada" },
      { published: true, tags: ["beta", "Gamma"], author: "Bo" },
      { published: true, tags: ["Delta"], author: "Ada" },
      { published: false, tags: ["Secret"], author: "Hidden" },
    ]);
    const { content } = blog.services.apps;
    const categories = (await blog.services.posts.summariseCategories()).length;

    const first = await content.browseTags({ limit: String(categories + 2) });
    expect(first.tags.slice(categories).map((tag) => tag.name.toLowerCase())).toEqual(["alpha", "beta"]);
    expect(first.tags[0]).not.toHaveProperty("count");
    expect(first.meta?.pagination).toMatchObject({ page: 1, next: 2, total: categories + 3, pages: 2 });
    const second = await content.browseTags({ limit: String(categories + 2), page: "2", include: "count.posts" });
    expect(second.tags.map((tag) => [tag.name, "count" in tag ? tag.count : undefined])).toEqual([
      ["Delta", { posts: 1 }],
      ["Gamma", { posts: 1 }],
    ]);
    expect(second.meta?.pagination).toMatchObject({ page: 2, next: null, prev: 1 });
    expect((await content.browseTags({ include: "count.posts" }, "beta")).tags).toEqual([
      expect.objectContaining({ slug: "beta", count: { posts: 2 } }),
    ]);
    expect((await content.browseTags({}, "secret")).tags).toEqual([]);

    const authors = await content.browseAuthors({ include: "count.posts" });
    expect(authors.authors.map((author) => [author.name, "count" in author ? author.count : undefined])).toEqual([
      ["Ada", { posts: 2 }],
      ["Bo", { posts: 1 }],
    ]);
    expect(authors.meta?.pagination).toMatchObject({ total: 2, pages: 1, next: null });

    const filtered = await content.browsePosts({ filter: "tag:beta", limit: "1" });
    expect(filtered.meta?.pagination).toMatchObject({ page: 1, next: 2, total: 2 });
  });

  it("finds a byline by its slug past the hundredth name, and never a draft's", async () => {
    const names = Array.from({ length: 102 }, (_, index) => `Writer ${String(index).padStart(3, "0")}`);
    await createPosts(blog.services, blog.clock, [
      ...names.map((author) => ({ published: true, author })),
      { published: false, author: "Only Drafts" },
    ]);
    const { content } = blog.services.apps;
    expect((await content.browseAuthors({}, "writer-101")).authors).toEqual([
      expect.objectContaining({ name: "Writer 101", slug: "writer-101" }),
    ]);
    expect((await content.browseAuthors({}, "only-drafts")).authors).toEqual([]);
  });

  it("costs a page the same statements at 6 posts as at 30", async () => {
    const statementsFor = async () => {
      const at = blog.clock.now().toISOString();
      const tags = recordStatements(blog.handle.db);
      await ghostRows.listPublicTags(tags.db, at, { skip: 0, take: 2 });
      const authors = recordStatements(blog.handle.db);
      await ghostRows.listPublicAuthors(authors.db, at, { skip: 0, take: 2 });
      const posts = recordStatements(blog.handle.db);
      await ghostRows.listPublicPostIds(
        posts.db,
        at,
        { tags: { keys: ["shared"], categories: [] } },
        {
          limit: 2,
          offset: 0,
          oldestFirst: false,
        },
      );
      expect(posts.statements.join()).not.toMatch(/count\(/i);
      return [tags.statements.length, authors.statements.length, posts.statements.length];
    };
    const batch = (n: number) =>
      Array.from({ length: n }, (_, index) => ({
        published: true,
        tags: ["shared", `tag ${index % 3}`],
        author: `Writer ${index % 3}`,
      }));
    await createPosts(blog.services, blog.clock, batch(6));
    const few = await statementsFor();
    await createPosts(blog.services, blog.clock, batch(24));
    expect(await statementsFor()).toEqual(few);
    expect(few[0]).toBeLessThanOrEqual(2 * 3);
    expect(few[2]).toBe(1);
  });
});
