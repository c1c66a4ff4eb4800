import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATEGORIES } from "#domain/categories.ts";
import { isDomainError } from "#domain/errors.ts";
import { demoPosts } from "../../server/demo/demo-content.ts";
import type { DatabaseHandle } from "../../server/kernel/db/connect.ts";
import { seedDemoContent } from "../../server/demo/service.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";

const now = new Date("2026-11-21T12:00:00.000Z");

describe.each(testDialects())("demo content on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let services: Services;

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    services = createServices({ db: handle.db, dialect, now: () => now, commentIpSalt: "demo test salt" });
  });
  afterEach(async () => {
    await handle?.close();
  });

  it("fills an empty blog with published posts in every category, drafts and comments", async () => {
    expect(await seedDemoContent(handle.db, services.comments, { siteUrl: "http://localhost:3000", now })).toBe(
      demoPosts.length,
    );
    const published = (await services.posts.listPublishedPosts()).items;
    expect(published.length).toBeGreaterThanOrEqual(18);
    expect(new Set(published.map((post) => post.category))).toEqual(new Set(CATEGORIES));
    const all = (await services.posts.listAllPosts()).items;
    expect(all.filter((post) => !post.published)).toHaveLength(2);
    for (const post of published) {
      expect(post.tags.length).toBeGreaterThanOrEqual(2);
      expect(post.tags.length).toBeLessThanOrEqual(4);
      expect(post.coverImage).toMatch(/^http:\/\/localhost:3000\/covers\/[\w-]+\.svg$/);
    }
    const comments = await handle.db.selectFrom("comments").select("id").execute();
    expect(comments.length).toBeGreaterThan(0);
  });

  it("shows each demo comment under its post, by its writer, dated after the post and never after now", async () => {
    await seedDemoContent(handle.db, services.comments, { siteUrl: "http://localhost:3000", now });
    for (const demo of demoPosts.filter((post) => post.comments.length > 0)) {
      const post = (await services.posts.listAllPosts(demo.title)).items.find((item) => item.title === demo.title)!;
      const shown = (await services.comments.listPublicComments(post.id)).items;
      expect(shown.map((comment) => comment.author).toSorted()).toEqual(
        demo.comments.map((comment) => comment.author).toSorted(),
      );
      for (const comment of shown) {
        expect(Date.parse(comment.createdAt)).toBeGreaterThan(Date.parse(post.createdAt));
        expect(Date.parse(comment.createdAt)).toBeLessThanOrEqual(now.getTime());
      }
    }
  });

  it("puts comments only on public posts, through the comment service's rules", async () => {
    const draft = await services.posts.createPost(buildPostInput({ published: false }), TEST_WRITER);
    const seeded = { author: "Ann", content: "Hello", createdAt: now.toISOString() };
    await expect(services.comments.addApprovedComments(draft.id, [seeded])).rejects.toSatisfy((error) =>
      isDomainError(error, "POST_NOT_AVAILABLE"),
    );
    const post = await services.posts.createPost(buildPostInput(), TEST_WRITER);
    await expect(services.comments.addApprovedComments(post.id, [{ ...seeded, author: "  " }])).rejects.toThrow(
      "Please enter your name",
    );
    expect((await services.comments.listPublicComments(post.id)).items).toEqual([]);
  });

  it("never loads into a blog that already has posts", async () => {
    await services.posts.createPost(buildPostInput({ title: "My own first post" }), TEST_WRITER);
    expect(await seedDemoContent(handle.db, services.comments, { siteUrl: "http://localhost:3000", now })).toBe(0);
    expect((await services.posts.listAllPosts()).items.map((post) => post.title)).toEqual(["My own first post"]);
  });

  it("loads once even when asked twice", async () => {
    await seedDemoContent(handle.db, services.comments, { siteUrl: "http://localhost:3000", now });
    expect(await seedDemoContent(handle.db, services.comments, { siteUrl: "http://localhost:3000", now })).toBe(0);
    expect((await services.posts.listAllPosts()).items).toHaveLength(demoPosts.length);
  });
});
