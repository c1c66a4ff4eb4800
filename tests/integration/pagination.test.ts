import { describe, expect, it } from "vitest";
import { BlogNotEmptyError, COMMON_WORD, generateBenchData } from "../../bench/data.ts";
import { COMMENTS_PER_PAGE, POSTS_PER_PAGE } from "#domain/pagination.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";
import { createPosts } from "../support/factories.ts";

const POSTS = 2 * POSTS_PER_PAGE + 5;

describe.each(testDialects())("pagination on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("splits the public list into pages that together hold every post once, newest first", async () => {
    await generateBenchData(blog.handle.db, { posts: POSTS, now: blog.clock.now() });
    const pages = await Promise.all([1, 2, 3].map((page) => blog.services.posts.listPublishedPosts(undefined, page)));
    expect(pages.map((page) => page.items.length)).toEqual([POSTS_PER_PAGE, POSTS_PER_PAGE, 5]);
    expect(pages.map((page) => page.total)).toEqual([POSTS, POSTS, POSTS]);
    const listed = pages.flatMap((page) => page.items);
    expect(new Set(listed.map((post) => post.id)).size).toBe(POSTS);
    const dates = listed.map((post) => post.createdAt);
    expect(dates).toEqual(dates.toSorted().reverse());
    expect((await blog.services.posts.listPublishedPosts(undefined, 4)).items).toEqual([]);
  });

  it("cuts pages to the size asked for: the site's posts-per-page setting", async () => {
    await generateBenchData(blog.handle.db, { posts: 12, now: blog.clock.now() });
    const pages = await Promise.all(
      [1, 2, 3].map((page) => blog.services.posts.listPublishedPosts(undefined, page, 5)),
    );
    expect(pages.map((page) => page.items.length)).toEqual([5, 5, 2]);
    expect(pages.map((page) => page.pageSize)).toEqual([5, 5, 5]);
    expect(new Set(pages.flatMap((page) => page.items.map((post) => post.id))).size).toBe(12);
    const categories = await blog.services.posts.summariseCategories();
    const biggest = categories[0]!;
    const byCategory = await blog.services.posts.listCategoryPosts(biggest.category as "Design", 1, 1);
    expect(byCategory.items).toHaveLength(1);
    expect(byCategory.total).toBe(biggest.postCount);
  });

  it("counts every search match and every post of a category, not just the page", async () => {
    await generateBenchData(blog.handle.db, { posts: POSTS, now: blog.clock.now() });
    const first = await blog.services.posts.listPublishedPosts(COMMON_WORD, 1);
    expect(first.total).toBeGreaterThan(POSTS_PER_PAGE);
    expect(first.items).toHaveLength(POSTS_PER_PAGE);
    const categories = await blog.services.posts.summariseCategories();
    const biggest = categories[0]!;
    const byCategory = await blog.services.posts.listCategoryPosts(biggest.category as "Design", 1);
    expect(byCategory.total).toBe(biggest.postCount);
    expect(categories.reduce((sum, category) => sum + category.postCount, 0)).toBe(POSTS);
  });

  it("shows the newest 50 comments of a post, then the older ones", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    for (let index = 0; index < COMMENTS_PER_PAGE + 3; index += 1) {
      blog.clock.advance(1000);
      await blog.services.comments.addComment(post!.id, { author: "Ann", content: `Comment ${index}` });
    }
    const newest = await blog.services.comments.listPublicComments(post!.id);
    expect(newest.total).toBe(COMMENTS_PER_PAGE + 3);
    expect(newest.items).toHaveLength(COMMENTS_PER_PAGE);
    expect(newest.items[0]!.content).toBe(`Comment ${COMMENTS_PER_PAGE + 2}`);
    const older = await blog.services.comments.listPublicComments(post!.id, 2);
    expect(older.items.map((comment) => comment.content)).toEqual(["Comment 2", "Comment 1", "Comment 0"]);
  });

  it("pages the admin list and keeps its filter", async () => {
    await createPosts(
      blog.services,
      blog.clock,
      Array.from({ length: 55 }, (_, index) => ({ title: index % 5 === 0 ? `Lighthouse ${index}` : `Other ${index}` })),
    );
    const all = await blog.services.posts.listAllPosts("", 2);
    expect([all.total, all.items.length]).toEqual([55, 5]);
    const filtered = await blog.services.posts.listAllPosts("lighthouse", 1);
    expect([filtered.total, filtered.items.length]).toEqual([11, 11]);
  });

  it("builds benchmark data only into an empty blog", async () => {
    await createPosts(blog.services, blog.clock, [{}]);
    await expect(generateBenchData(blog.handle.db, { posts: 10 })).rejects.toBeInstanceOf(BlogNotEmptyError);
  });
});
