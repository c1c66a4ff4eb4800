import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATEGORIES } from "#domain/categories.ts";
import { demoPosts } from "../../server/demo/demo-content.ts";
import type { DatabaseHandle } from "../../server/db/connect.ts";
import { seedDemoContent } from "../../server/services/demo.ts";
import { createServices, type Services } from "../../server/services/index.ts";
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
    expect(await seedDemoContent(handle.db, { siteUrl: "http://localhost:3000", now })).toBe(demoPosts.length);
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

  it("never loads into a blog that already has posts", async () => {
    await services.posts.createPost(buildPostInput({ title: "My own first post" }), TEST_WRITER);
    expect(await seedDemoContent(handle.db, { siteUrl: "http://localhost:3000", now })).toBe(0);
    expect((await services.posts.listAllPosts()).items.map((post) => post.title)).toEqual(["My own first post"]);
  });

  it("loads once even when asked twice", async () => {
    await seedDemoContent(handle.db, { siteUrl: "http://localhost:3000", now });
    expect(await seedDemoContent(handle.db, { siteUrl: "http://localhost:3000", now })).toBe(0);
    expect((await services.posts.listAllPosts()).items).toHaveLength(demoPosts.length);
  });
});
