import { describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { testDialects } from "../support/databases.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";
import { buildPostInput, createPosts } from "../support/factories.ts";
import { createServices } from "../../server/composition.ts";
import { action as postAction } from "../../app/routes/site/post.tsx";
import { createRouteTestContext, postForm, routeArgs, settle } from "../support/route-context.ts";
import { recordStatements } from "../support/statements.ts";

describe.each(testDialects())("comments on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("stores a comment with the time it was made and lists newest first", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const first = await blog.services.comments.addComment(post!.id, { author: "Ann", content: "First!" });
    expect(first.createdAt).toBe(blog.clock.now().toISOString());
    blog.clock.advance(1000);
    await blog.services.comments.addComment(post!.id, { author: "Bob", content: "Second" });
    const comments = (await blog.services.comments.listPublicComments(post!.id)).items;
    expect(comments.map((comment) => comment.author)).toEqual(["Bob", "Ann"]);
  });

  it("keeps odd unicode and markup as plain text", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const content = "<script>alert(1)</script> Zalgo z̷̢a̶l̸g̵o 🙂 \u202Eright-to-left";
    await blog.services.comments.addComment(post!.id, { author: "名前", content });
    const comments = (await blog.services.comments.listPublicComments(post!.id)).items;
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

  it("takes a comment at a post's former slug and at its id, and says the address where it shows", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "First name" }]);
    await blog.services.posts.updatePost(post!.id, buildPostInput({ title: "First name", slug: "second-name" }));
    for (const address of ["first-name", "second-name", post!.id]) {
      const saved = await blog.services.comments.addComment(address, { author: "Ann", content: `At ${address}` });
      expect(saved, address).toMatchObject({ postId: post!.id, postSlug: "second-name" });
    }
    const [draft] = await createPosts(blog.services, blog.clock, [{ title: "Secret plan", published: false }]);
    await blog.services.posts.updatePost(
      draft!.id,
      buildPostInput({ title: "Secret plan", slug: "secret-plan-v2", published: false }),
    );
    for (const address of ["secret-plan-v2", "secret-plan", draft!.id]) {
      await expect(
        blog.services.comments.addComment(address, { author: "A", content: "B" }),
        address,
      ).rejects.toSatisfy((error) => isDomainError(error, "POST_NOT_AVAILABLE"));
    }
  });

  it("takes a visitor's comment in at most six statements, none of them reading a post's body", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [
      { content: `<p>${"A long body. ".repeat(2000)}</p>` },
    ]);
    const recorded = recordStatements(blog.handle.db);
    const services = createServices({
      db: recorded.db,
      dialect,
      now: blog.clock.now,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    const { context } = createRouteTestContext(services, null, "203.0.113.40");
    const request = postForm(`http://blog.test/blog/${post!.slug}`, { author: "Ann", content: "Lovely", website: "" });
    const outcome = await settle(() => postAction(routeArgs(request, context, { slug: post!.slug }) as never));

    expect(outcome.status).toBe(303);
    expect(recorded.statements.length).toBeLessThanOrEqual(6);
    const postReads = recorded.statements.filter((statement) => statement.includes('"posts"'));
    expect(postReads).not.toEqual([]);
    for (const statement of postReads) expect(statement).not.toMatch(/\*|content/);
  });
});
