// `include=count.posts` at any size: tags' and bylines' counts come from counters the database
// keeps with every write (migration 0037), less the scheduled posts whose time has not come
// (docs/decisions/0034), so they stay exact through every change and cost O(page).
import { CompiledQuery } from "kysely";
import { describe, expect, it } from "vitest";
import * as ghostRows from "../../server/apps/repositories/ghost.ts";
import { testDialects } from "../support/databases.ts";
import { TEST_WRITER, buildPostInput, createPosts } from "../support/factories.ts";
import { recordStatements } from "../support/statements.ts";
import { useTestBlog } from "../support/test-blog.ts";

describe.each(testDialects())("the Content API's maintained counts on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  const counts = async () => {
    const at = blog.clock.now().toISOString();
    const tags = await ghostRows.countPublicPostsByTag(blog.handle.db, at, ["alpha", "beta", "gamma"]);
    const authors = await ghostRows.countPublicPostsByAuthor(blog.handle.db, at, ["Ada", "Bo"]);
    return { tags: Object.fromEntries(tags), authors: Object.fromEntries(authors) };
  };

  it("stays exact after create, publish, unpublish, a tag edit, scheduling, the clock and delete", async () => {
    const { posts } = blog.services;
    const [first, second] = await createPosts(blog.services, blog.clock, [
      { published: true, tags: ["Alpha", "Beta"], author: "Ada" },
      { published: false, tags: ["Beta"], author: "Bo" },
    ]);
    expect(await counts()).toEqual({ tags: { alpha: 1, beta: 1 }, authors: { Ada: 1 } });

    await posts.updatePost(second!.id, buildPostInput({ published: true, tags: ["Beta"], author: "Bo" }), TEST_WRITER);
    expect(await counts()).toEqual({ tags: { alpha: 1, beta: 2 }, authors: { Ada: 1, Bo: 1 } });

    await posts.updatePost(
      first!.id,
      buildPostInput({ published: true, tags: ["beta", "Gamma"], author: "Bo" }),
      TEST_WRITER,
    );
    expect(await counts()).toEqual({ tags: { beta: 2, gamma: 1 }, authors: { Bo: 2 } });

    await posts.updatePost(second!.id, buildPostInput({ published: false, tags: ["Beta"], author: "Bo" }), TEST_WRITER);
    expect(await counts()).toEqual({ tags: { beta: 1, gamma: 1 }, authors: { Bo: 1 } });

    const tomorrow = new Date(blog.clock.now().getTime() + 86_400_000).toISOString().slice(0, 19);
    await posts.createPost(
      buildPostInput({ published: true, tags: ["Alpha"], author: "Ada", publishAt: tomorrow, publishAtOffset: "0" }),
      TEST_WRITER,
    );
    expect(await counts()).toEqual({ tags: { beta: 1, gamma: 1 }, authors: { Bo: 1 } });
    blog.clock.advance(2 * 86_400_000);
    expect(await counts()).toEqual({ tags: { alpha: 1, beta: 1, gamma: 1 }, authors: { Ada: 1, Bo: 1 } });

    await posts.deletePost(first!.id, TEST_WRITER);
    expect(await counts()).toEqual({ tags: { alpha: 1 }, authors: { Ada: 1 } });
    const tags = await blog.services.apps.content.browseTags({ include: "count.posts" }, "alpha");
    expect(tags.tags).toEqual([expect.objectContaining({ slug: "alpha", count: { posts: 1 } })]);

    // A post whose row goes with its tag rows still there (the tables' cascade, as a future
    // path might): counted off too.
    const [kept] = await createPosts(blog.services, blog.clock, [{ published: true, tags: ["Beta"], author: "Bo" }]);
    await blog.handle.db.deleteFrom("posts").where("id", "=", kept!.id).execute();
    expect(await counts()).toEqual({ tags: { alpha: 1 }, authors: { Ada: 1 } });
  });

  it("costs a tags or authors page with counts the same statements at 6 posts as at 60", async () => {
    const statementsFor = async () => {
      const at = blog.clock.now().toISOString();
      const tags = recordStatements(blog.handle.db);
      await ghostRows.countPublicPostsByTag(tags.db, at, ["shared", "tag 0", "tag 1"]);
      const authors = recordStatements(blog.handle.db);
      await ghostRows.countPublicPostsByAuthor(authors.db, at, ["Writer 0", "Writer 1"]);
      expect([...tags.statements, ...authors.statements].join()).not.toMatch(/count\(/i);
      return [tags.statements.length, authors.statements.length];
    };
    const batch = (n: number) =>
      Array.from({ length: n }, (_, index) => ({
        published: true,
        tags: ["shared", `tag ${index % 3}`],
        author: `Writer ${index % 3}`,
      }));
    const tomorrow = new Date(blog.clock.now().getTime() + 86_400_000).toISOString().slice(0, 19);
    await blog.services.posts.createPost(
      buildPostInput({ published: true, tags: ["shared"], publishAt: tomorrow, publishAtOffset: "0" }),
      TEST_WRITER,
    );
    await createPosts(blog.services, blog.clock, batch(6));
    const few = await statementsFor();
    await createPosts(blog.services, blog.clock, batch(54));
    expect(await statementsFor()).toEqual(few);
    expect(few).toEqual([3, 2]);
    const shared = await ghostRows.countPublicPostsByTag(blog.handle.db, blog.clock.now().toISOString(), ["shared"]);
    expect(shared.get("shared")).toBe(60);
  });

  // SQLite plans without statistics, the same at 6 posts as at 100,000, so its plan here is the
  // plan at size. (PostgreSQL plans from statistics; bench/ghost-content-api.ts measures it.)
  it.runIf(dialect === "sqlite")("reads the schedule through its index, never every published post", async () => {
    await createPosts(blog.services, blog.clock, [{ published: true, tags: ["alpha"], author: "Ada" }]);
    const at = blog.clock.now().toISOString();
    const recorded = recordStatements(blog.handle.db);
    await ghostRows.countPublicPostsByTag(recorded.db, at, ["alpha"]);
    await ghostRows.countPublicPostsByAuthor(recorded.db, at, ["Ada"]);
    const plans: string[] = [];
    for (const query of recorded.compiled) {
      const plan = await blog.handle.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      plans.push(...plan.rows.map((row) => row.detail));
    }
    expect(plans.filter((detail) => /\bposts\b/.test(detail))).toEqual([
      expect.stringContaining("USING INDEX posts_publish_at (publish_at>?)"),
      expect.stringContaining("USING INDEX posts_publish_at (publish_at>?)"),
    ]);
  });
});
