import { describe, expect, it } from "vitest";
import { RateLimitedError } from "#domain/errors.ts";
import { createCommentService } from "../../server/comments/service.ts";
import { testDialects } from "../support/databases.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";
import { createPosts } from "../support/factories.ts";

const policy = { maxHits: 3, windowMs: 60_000 };

describe.each(testDialects())("visitor comments on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("refuses an address over its budget until the window ends, and says when to retry", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    // Several comments from one address within seconds: only the 20-per-10-minutes budget is under test.
    const comments = createCommentService({
      db: blog.handle.db,
      now: blog.clock.now,
      ipSalt: TEST_COMMENT_IP_SALT,
      rateLimit: policy,
      floodWindowMs: 0,
    });
    const visitor = { clientAddress: "203.0.113.7" };
    for (let attempt = 1; attempt <= policy.maxHits; attempt += 1) {
      await comments.addComment(post!.id, { author: "Ann", content: `Comment ${attempt}` }, visitor);
    }
    blog.clock.advance(20_000);
    const refused = await comments
      .addComment(post!.id, { author: "Ann", content: "One too many" }, visitor)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(40);

    const other = { clientAddress: "198.51.100.1" };
    await expect(comments.addComment(post!.id, { author: "Bo", content: "Hi" }, other)).resolves.toMatchObject({
      author: "Bo",
    });

    blog.clock.advance(40_001);
    await expect(
      comments.addComment(post!.id, { author: "Ann", content: "Back again" }, visitor),
    ).resolves.toMatchObject({ content: "Back again" });
    const stored = (await blog.services.comments.listPublicComments(post!.id)).items;
    expect(stored.map((comment) => comment.content)).not.toContain("One too many");
    expect(stored).toHaveLength(policy.maxHits + 2);
  });

  it("counts attempts on missing posts too, so probing costs the same budget", async () => {
    const comments = createCommentService({
      db: blog.handle.db,
      now: blog.clock.now,
      ipSalt: TEST_COMMENT_IP_SALT,
      rateLimit: { maxHits: 1, windowMs: 60_000 },
    });
    const visitor = { clientAddress: "2001:db8::1" };
    await expect(comments.addComment("missing", { author: "A", content: "B" }, visitor)).rejects.toMatchObject({
      code: "POST_NOT_FOUND",
    });
    await expect(comments.addComment("missing", { author: "A", content: "B" }, visitor)).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });
});
