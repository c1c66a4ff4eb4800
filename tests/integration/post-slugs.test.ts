import { describe, expect, it } from "vitest";
import { loader as postLoader } from "../../app/routes/site/post.tsx";
import { createMigrator, migrateToLatest } from "../../server/kernel/db/migrate.ts";
import { isDomainError } from "../../domain/errors.ts";
import { createRouteTestContext, routeArgs, settle } from "../support/route-context.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, createPosts } from "../support/factories.ts";
import { recordStatements } from "../support/statements.ts";
import { findPostIdByAddress } from "../../server/posts/repositories/posts.ts";
import { useTestBlog } from "../support/test-blog.ts";

describe.each(testDialects())("post slugs on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  /** What GET /blog/{address} answers, through the route's own loader and the real services. */
  function visit(address: string) {
    const { context } = createRouteTestContext(blog.services);
    return settle(() =>
      postLoader(routeArgs(new Request(`http://blog.test/blog/${address}`), context, { slug: address })),
    );
  }

  it("derives a lower-case ASCII slug from the title, unique among posts", async () => {
    const [first, second, symbols] = await createPosts(blog.services, blog.clock, [
      { title: "Crème Brûlée & Œuvres: Straße!" },
      { title: "crème brûlée & œuvres: strasse" },
      { title: "!!!" },
    ]);
    expect(first!.slug).toBe("creme-brulee-and-oeuvres-strasse");
    expect(second!.slug).toBe("creme-brulee-and-oeuvres-strasse-2");
    expect(symbols!.slug).toBe("post");
  });

  it("takes the writer's slug, folded, and refuses one another post uses", async () => {
    const [own] = await createPosts(blog.services, blog.clock, [{ slug: "  My Own Slug  " }]);
    expect(own!.slug).toBe("my-own-slug");
    await expect(blog.services.posts.createPost(buildPostInput({ slug: "my-own-slug" }))).rejects.toSatisfy((error) =>
      isDomainError(error, "SLUG_TAKEN"),
    );
  });

  it("cuts a long title's slug at a word, and serves the post there", async () => {
    const title = "A very long title about building a tiny command line tool with Node and zero dependencies at all";
    const [post] = await createPosts(blog.services, blog.clock, [{ title }]);
    expect(post!.slug).toBe("a-very-long-title-about-building-a-tiny-command-line-tool-with-node-and-zero");
    expect((await visit(post!.slug)).status).toBe(200);
  });

  it("serves a post at its slug and answers 301 from its id", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "Hello World" }]);
    const atSlug = await visit("hello-world");
    expect(atSlug.status).toBe(200);
    expect(atSlug.body).toMatchObject({ post: { id: post!.id, slug: "hello-world" } });

    const atId = await visit(post!.id);
    expect(atId.status).toBe(301);
    expect(atId.headers.get("Location")).toBe("/blog/hello-world");
  });

  it("keeps every former slug answering 301 to the current one, and lets the post take one back", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "First name" }]);
    const input = buildPostInput({ title: post!.title });
    await blog.services.posts.updatePost(post!.id, { ...input, slug: "second-name" });
    await blog.services.posts.updatePost(post!.id, { ...input, slug: "third-name" });

    for (const former of ["first-name", "second-name"]) {
      const answer = await visit(former);
      expect(answer.status, former).toBe(301);
      expect(answer.headers.get("Location")).toBe("/blog/third-name");
    }
    // Another post cannot take a slug that still redirects; a blank slug steps around it.
    await expect(blog.services.posts.createPost(buildPostInput({ slug: "first-name" }))).rejects.toSatisfy((error) =>
      isDomainError(error, "SLUG_TAKEN"),
    );
    const [other] = await createPosts(blog.services, blog.clock, [{ title: "First name" }]);
    expect(other!.slug).toBe("first-name-2");

    const back = await blog.services.posts.updatePost(post!.id, { ...input, slug: "first-name" });
    expect(back.slug).toBe("first-name");
    expect((await visit("first-name")).status).toBe(200);
    expect((await visit("third-name")).headers.get("Location")).toBe("/blog/first-name");
  });

  it("keeps the slug when the writer leaves it as it was, and derives a new one when cleared", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "Old title" }]);
    const renamed = await blog.services.posts.updatePost(
      post!.id,
      buildPostInput({ title: "New title", slug: post!.slug }),
    );
    expect(renamed.slug).toBe("old-title");
    const cleared = await blog.services.posts.updatePost(post!.id, buildPostInput({ title: "New title", slug: "" }));
    expect(cleared.slug).toBe("new-title");
  });

  it("answers 'This post is not available' for a draft at its slug, former slug and id", async () => {
    const [draft] = await createPosts(blog.services, blog.clock, [{ title: "Secret plan", published: false }]);
    await blog.services.posts.updatePost(
      draft!.id,
      buildPostInput({ title: "Secret plan", slug: "secret-plan-v2", published: false }),
    );
    for (const address of ["secret-plan-v2", "secret-plan", draft!.id]) {
      expect(await visit(address), address).toMatchObject({
        status: 404,
        body: { message: "This post is not available" },
      });
    }
  });

  it("finds the post an address names in one statement, by slug, then former slug, then id", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "Where it lives" }]);
    await blog.services.posts.updatePost(post!.id, buildPostInput({ title: post!.title, slug: "where-it-lives-now" }));
    for (const [address, expected] of [
      ["where-it-lives-now", post!.id],
      ["where-it-lives", post!.id],
      [post!.id, post!.id],
      ["nowhere", undefined],
    ] as const) {
      const recorded = recordStatements(blog.handle.db);
      expect(await findPostIdByAddress(recorded.db, address), address).toBe(expected);
      expect(recorded.statements, address).toHaveLength(1);
    }
  });

  it("frees a deleted post's slugs", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "Gone soon" }]);
    await blog.services.posts.updatePost(post!.id, buildPostInput({ title: "Gone soon", slug: "gone-now" }));
    await blog.services.posts.deletePost(post!.id);
    const [next] = await createPosts(blog.services, blog.clock, [{ title: "Gone soon" }]);
    expect(next!.slug).toBe("gone-soon");
    expect((await visit("gone-now")).status).toBe(404);
  });

  it("gives posts written before slugs existed a slug each, oldest first, on migration", async () => {
    const { db } = blog.handle;
    const migrator = createMigrator(db, dialect);
    const { error } = await migrator.migrateTo("0002-setup-tokens");
    expect(error).toBeUndefined();
    const row = (id: string, title: string, createdAt: string) => ({
      id,
      title,
      content: "<p>Body</p>",
      excerpt: "Excerpt",
      author: "Ada",
      cover_image: "https://images.example.com/c.jpg",
      category: "Design",
      published: 1,
      created_at: createdAt,
      updated_at: createdAt,
    });
    // The slug column does not exist yet at this version.
    const legacy = db as unknown as import("kysely").Kysely<{ posts: ReturnType<typeof row> }>;
    await legacy
      .insertInto("posts")
      .values([
        row("newer", "Same Title", "2024-02-01T00:00:00.000Z"),
        row("older", "Same Title", "2024-01-01T00:00:00.000Z"),
        row("other", "Ça marche très bien", "2024-03-01T00:00:00.000Z"),
      ])
      .execute();

    expect(await migrateToLatest(db, dialect)).toContain("0003-post-slugs");
    const slugs = await db.selectFrom("posts").select(["id", "slug"]).orderBy("id").execute();
    expect(slugs).toEqual([
      { id: "newer", slug: "same-title-2" },
      { id: "older", slug: "same-title" },
      { id: "other", slug: "ca-marche-tres-bien" },
    ]);
  });
});
