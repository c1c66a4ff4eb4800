import { describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";
import { createPosts } from "../support/factories.ts";

describe.each(testDialects())("comments on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("stores a comment with the time it was made and lists newest first", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const first = await blog.services.comments.addComment(post!.id, { author: "Ann", content: "First!" });
    expect(first.createdAt).toBe(blog.clock.now().toISOString());
    blog.clock.advance(1000);
    await blog.services.comments.addComment(post!.id, { author: "Bob", content: "Second" });
    const comments = (await blog.services.posts.getPublicPost(post!.id)).comments.items;
    expect(comments.map((comment) => comment.author)).toEqual(["Bob", "Ann"]);
  });

  it("keeps odd unicode and markup as plain text", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const content = "<script>alert(1)</script> Zalgo z̷̢a̶l̸g̵o 🙂 \u202Eright-to-left";
    await blog.services.comments.addComment(post!.id, { author: "名前", content });
    const comments = (await blog.services.posts.getPublicPost(post!.id)).comments.items;
    expect(comments[0]).toMatchObject({ author: "名前", content });
  });

  it("refuses comments on drafts and on missing posts", async () => {
    const [draft] = await createPosts(blog.services, blog.clock, [{ published: false }]);
    await expect(blog.services.comments.addComment(draft!.id, { author: "A", content: "B" })).rejects.toSatisfy(
      (error) => isDomainError(error, "POST_NOT_AVAILABLE"),
    );
    await expect(blog.services.comments.addComment("missing", { author: "A", content: "B" })).rejects.toSatisfy(
      (error) => isDomainError(error, "POST_NOT_FOUND"),
    );
  });
});
