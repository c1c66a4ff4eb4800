import { describe, expect, it } from "vitest";
import { generateBenchData } from "../../bench/data.ts";
import { createMigrator, migrateToLatest } from "../../server/kernel/db/migrate.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";
import { buildPostInput, createPosts, TEST_WRITER } from "../support/factories.ts";

// The counts readers see ("N posts", each category's count) come from a counter the database
// keeps on every write (migration 0013), less the scheduled posts whose time has not come.
describe.each(testDialects())("public post counts on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  async function counts() {
    const categories = await blog.services.posts.summariseCategories();
    return {
      total: await blog.services.posts.countPublishedPosts(),
      listed: (await blog.services.posts.listPublishedPosts()).total,
      byCategory: Object.fromEntries(categories.map((summary) => [summary.category, summary.postCount])),
    };
  }

  it("follow every kind of write: create, draft, publish, save, unpublish, move and delete", async () => {
    const [design, draft, business] = await createPosts(blog.services, blog.clock, [
      { category: "Design" },
      { category: "Design", published: false },
      { category: "Business" },
    ]);
    expect(await counts()).toEqual({ total: 2, listed: 2, byCategory: { Design: 1, Business: 1 } });

    await blog.services.posts.updatePost(draft!.id, buildPostInput({ category: "Design" }), TEST_WRITER);
    expect(await counts()).toEqual({ total: 3, listed: 3, byCategory: { Design: 2, Business: 1 } });

    await blog.services.posts.updatePost(design!.id, buildPostInput({ category: "Design" }), TEST_WRITER);
    expect(await counts()).toEqual({ total: 3, listed: 3, byCategory: { Design: 2, Business: 1 } });

    await blog.services.posts.updatePost(design!.id, buildPostInput({ category: "Business" }), TEST_WRITER);
    expect(await counts()).toEqual({ total: 3, listed: 3, byCategory: { Design: 1, Business: 2 } });

    await blog.services.posts.updatePost(
      business!.id,
      buildPostInput({ category: "Business", published: false }),
      TEST_WRITER,
    );
    expect(await counts()).toEqual({ total: 2, listed: 2, byCategory: { Design: 1, Business: 1 } });

    await blog.services.posts.deletePost(design!.id);
    await blog.services.posts.deletePost(business!.id);
    expect(await counts()).toEqual({ total: 1, listed: 1, byCategory: { Design: 1 } });
  });

  // SQLite has one writer at a time anyway; PostgreSQL locks the counter row of each category an
  // import writes to until the import commits.
  it.skipIf(dialect !== "postgres")("never hold up an ordinary save while an import holds the counter", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ category: "Design" }]);
    let finishImport!: () => void;
    let counterHeld!: () => void;
    const held = new Promise<void>((resolve) => (counterHeld = resolve));
    const importing = blog.handle.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("published_post_counts")
        .set((eb) => ({ posts: eb("posts", "+", 0) }))
        .where("category", "=", "Design")
        .execute();
      counterHeld();
      await new Promise<void>((resolve) => (finishImport = resolve));
    });
    await held;
    const saved = await blog.services.posts.updatePost(
      post!.id,
      buildPostInput({ title: "Edited", category: "Design" }),
      TEST_WRITER,
    );
    finishImport();
    await importing;
    expect(saved.title).toBe("Edited");
    expect(await counts()).toEqual({ total: 1, listed: 1, byCategory: { Design: 1 } });
  });

  it("count a scheduled post only from its publishing time", async () => {
    await createPosts(blog.services, blog.clock, [
      { category: "Marketing" },
      { category: "Marketing", publishAt: "2026-03-05T13:00", publishAtOffset: "0" },
    ]);
    expect(await counts()).toEqual({ total: 1, listed: 1, byCategory: { Marketing: 1 } });
    blog.clock.advance(3 * 60 * 60 * 1000);
    expect(await counts()).toEqual({ total: 2, listed: 2, byCategory: { Marketing: 2 } });
    expect((await blog.services.posts.listCategoryPosts("Marketing")).total).toBe(2);
  });

  it("count posts written in bulk, and say when each category last changed", async () => {
    await generateBenchData(blog.handle.db, { posts: 60, now: blog.clock.now() });
    const { total, byCategory } = await counts();
    expect(total).toBe(60);
    expect(Object.values(byCategory).reduce((sum, count) => sum + count, 0)).toBe(60);

    blog.clock.advance(60_000);
    const [newest] = await createPosts(blog.services, blog.clock, [{ category: "Tutorials" }]);
    await createPosts(blog.services, blog.clock, [{ category: "Tutorials", published: false }]);
    const updates = await blog.services.posts.listCategoryUpdates();
    expect(updates.map((update) => update.category)).toEqual(Object.keys(byCategory).toSorted());
    expect(updates.find((update) => update.category === "Tutorials")?.updatedAt).toBe(newest!.updatedAt);
  });

  it("start from the posts already written when the counter is added", async () => {
    await createPosts(blog.services, blog.clock, [
      { category: "Design" },
      { category: "Design" },
      { category: "Business", published: false },
    ]);
    const { error } = await createMigrator(blog.handle.db, dialect).migrateTo("0012-public-count-indexes");
    expect(error).toBeUndefined();
    // Every migration after 0012 runs, in order: 0013 and any added since.
    const later = (await createMigrator(blog.handle.db, dialect).getMigrations())
      .map((migration) => migration.name)
      .filter((name) => name > "0012-public-count-indexes");
    expect(later[0]).toBe("0013-published-post-counts");
    expect(await migrateToLatest(blog.handle.db, dialect)).toEqual(later);
    expect(await counts()).toEqual({ total: 2, listed: 2, byCategory: { Design: 2 } });
  });
});
