import { describe, expect, it } from "vitest";
import { EMPTY_PAGE_FORM, pageSchema } from "#domain/page.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, createPosts, TEST_WRITER } from "../support/factories.ts";
import { useTestBlog } from "../support/test-blog.ts";

// The fediverse sweep compares posts alone (server/fediverse/delivery.ts): server.ts nudges it
// on post changes, the subscription this test makes, and on nothing else.
describe.each(testDialects())("what starts a fediverse sweep on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  function countNudges() {
    const counter = { nudges: 0 };
    blog.services.changes.subscribe(() => {
      counter.nudges += 1;
    }, ["post"]);
    return counter;
  }

  it("a post saved, unpublished, restored or deleted nudges the sweep", async () => {
    const counter = countNudges();
    const [post] = await createPosts(blog.services, blog.clock, [{ title: "A heron" }]);
    expect(counter.nudges).toBe(1);
    await blog.services.posts.updatePost(post!.id, buildPostInput({ title: "A heron at dusk" }), TEST_WRITER);
    await blog.services.posts.updatePost(post!.id, buildPostInput({ published: false }), TEST_WRITER);
    expect(counter.nudges).toBe(3);
    const [first] = (await blog.services.posts.listRevisions(post!.id)).toReversed();
    await blog.services.posts.restoreRevision(post!.id, first!.id, TEST_WRITER);
    await blog.services.posts.deletePost(post!.id, TEST_WRITER);
    expect(counter.nudges).toBe(5);
  });

  it("a comment approved, taken back or deleted, or a page saved, does not", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const counter = countNudges();
    const comment = await blog.services.comments.addComment(post!.id, { author: "Ann", content: "Lovely" });
    expect(comment.status).toBe("approved");
    await blog.services.comments.moderate("unapprove", [comment.id]);
    await blog.services.comments.moderate("approve", [comment.id]);
    await blog.services.comments.moderate("delete", [comment.id]);
    await blog.services.pages.createPage(
      pageSchema.parse({ ...EMPTY_PAGE_FORM, title: "Now", content: "What I do now.", published: true }),
      TEST_WRITER,
    );
    expect(counter.nudges).toBe(0);
  });
});
