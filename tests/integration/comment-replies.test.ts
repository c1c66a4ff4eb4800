import { describe, expect, it } from "vitest";
import type { Comment } from "#domain/comment.ts";
import { isDomainError } from "#domain/errors.ts";
import { COMMENTS_PER_PAGE } from "#domain/pagination.ts";
import { createCommentService } from "../../server/comments/index.ts";
import { createServices } from "../../server/composition.ts";
import { action as postAction } from "../../app/routes/site/post.tsx";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { recordStatements } from "../support/statements.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const WRITER = { id: TEST_ADMIN.id, name: "Ada Writer" };
const visitor = (clientAddress: string) => ({ clientAddress, honeypot: "" });
const gone = (error: unknown) => isDomainError(error, "REPLY_PARENT_GONE");

describe.each(testDialects())("replies to comments on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const comments = () => blog.services.comments;
  const authors = (list: readonly Comment[]) => list.map((comment) => comment.author);

  /** The comment service with a `CommentLife` that records what became public: [id, parentId, authorUserId]. */
  function withLife() {
    const heard: [string, string | null, string | null][][] = [];
    const service = createCommentService({
      db: blog.handle.db,
      now: blog.clock.now,
      ipSalt: TEST_COMMENT_IP_SALT,
      life: [
        {
          prepare: async () => ({
            published: async (moments) => {
              heard.push(moments.map((moment) => [moment.id, moment.parentId, moment.authorUserId]));
            },
            afterCommit: () => {},
          }),
        },
      ],
    });
    return { service, heard };
  }

  it("shows threads newest first and each thread's replies oldest first under their comment", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const question = await comments().addComment(post!.id, { author: "Ann", content: "Does it work on iron?" });
    blog.clock.advance(1000);
    const later = await comments().addComment(post!.id, { author: "Bob", content: "Nice post" });
    blog.clock.advance(1000);
    const answer = await comments().addWriterComment(
      post!.id,
      { content: "Yes, it does.", replyTo: question.id },
      WRITER,
    );
    blog.clock.advance(1000);
    // A reply to a reply joins the thread of the comment it started from.
    const thanks = await comments().addComment(post!.id, { author: "Ann", content: "Thanks!", replyTo: answer.id });

    const page = await comments().listPublicComments(post!.id);
    expect(authors(page.items)).toEqual(["Bob", "Ann"]);
    expect(page.items[1]!.replies.map((reply) => reply.id)).toEqual([answer.id, thanks.id]);
    expect(page.items[1]!.replies[0]).toMatchObject({ author: "Ada Writer", byAuthor: true, parentId: question.id });
    expect(page.items[1]!.replies[1]).toMatchObject({ parentId: question.id });
    expect(page.items[1]!.replies[1]!.byAuthor).toBeUndefined();
    expect(page.items[0]).toMatchObject({ id: later.id, replies: [] });
    expect(page).toMatchObject({ total: 2, commentCount: 4 });
  });

  it("reads a page of threads and all their replies in three statements, whatever the number of replies", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    for (let index = 0; index < 5; index += 1) {
      blog.clock.advance(1000);
      const thread = await comments().addComment(post!.id, { author: `Reader ${index}`, content: `Comment ${index}` });
      for (let reply = 0; reply < index; reply += 1) {
        blog.clock.advance(1000);
        await comments().addComment(post!.id, { author: "Replier", content: `Reply ${reply}`, replyTo: thread.id });
      }
    }
    const recorded = recordStatements(blog.handle.db);
    const services = createServices({
      db: recorded.db,
      dialect,
      now: blog.clock.now,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    const page = await services.comments.listPublicComments(post!.id);
    expect(recorded.statements).toHaveLength(3);
    expect(page.items.map((thread) => thread.replies.length)).toEqual([4, 3, 2, 1, 0]);
    expect(page.commentCount).toBe(15);
  });

  it("pages by threads: a thread's replies stay with it, and a reply lands on its thread's page", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const started: Comment[] = [];
    for (let index = 0; index <= COMMENTS_PER_PAGE; index += 1) {
      blog.clock.advance(1000);
      started.push(await comments().addComment(post!.id, { author: `Reader ${index}`, content: `Comment ${index}` }));
    }
    blog.clock.advance(1000);
    // The oldest thread is the first of page 2; the newest the first of page 1.
    const onSecond = await comments().addComment(post!.id, {
      author: "Late",
      content: "An answer to the oldest",
      replyTo: started[0]!.id,
    });
    const onFirst = await comments().addWriterComment(post!.id, { content: "Hi", replyTo: started.at(-1)!.id }, WRITER);
    expect(onSecond.page).toBe(2);
    expect(onFirst.page).toBe(1);

    const first = await comments().listPublicComments(post!.id, 1);
    const second = await comments().listPublicComments(post!.id, 2);
    expect(first).toMatchObject({ total: COMMENTS_PER_PAGE + 1, commentCount: COMMENTS_PER_PAGE + 3 });
    expect(first.items).toHaveLength(COMMENTS_PER_PAGE);
    expect(first.items[0]!.replies.map((reply) => reply.id)).toEqual([onFirst.id]);
    expect(first.items.flatMap((thread) => thread.replies)).toHaveLength(1);
    expect(second.items.map((thread) => thread.id)).toEqual([started[0]!.id]);
    expect(second.items[0]!.replies.map((reply) => reply.id)).toEqual([onSecond.id]);
  });

  it("holds a reader's reply by the same policy, and answers only comments readers are shown", async () => {
    const [post, other] = await createPosts(blog.services, blog.clock, [{}, {}]);
    const question = await comments().addComment(post!.id, { author: "Ann", content: "A question" });
    const elsewhere = await comments().addComment(other!.id, { author: "Cy", content: "Elsewhere" });
    await comments().saveSettings({ holdAll: true, blocklist: "", closeAfterDays: null });
    const held = await comments().addComment(post!.id, { author: "Bo", content: "Me too", replyTo: question.id });
    expect(held).toMatchObject({ status: "pending", parentId: question.id });
    expect((await comments().listPublicComments(post!.id)).items[0]!.replies).toEqual([]);
    const thread = await comments().describeThread(post!, [held.id]);
    expect(thread.awaitingModeration).toMatchObject([{ id: held.id, parentId: question.id }]);

    for (const replyTo of [held.id, elsewhere.id, "missing", "not an id!"]) {
      await expect(
        comments().addComment(post!.id, { author: "Di", content: `To ${replyTo}`, replyTo }),
        replyTo,
      ).rejects.toSatisfy(gone);
    }
    await comments().moderate("spam", [question.id]);
    await expect(
      comments().addWriterComment(post!.id, { content: "Hm", replyTo: question.id }, WRITER),
    ).rejects.toSatisfy(gone);
  });

  it("publishes a writer's reply at once, even on a post closed to readers, and approves the held comment it answers", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{ commentsClosed: false }]);
    await comments().saveSettings({ holdAll: true, blocklist: "", closeAfterDays: null });
    const held = await comments().addComment(post!.id, { author: "Ann", content: "Held question" });
    const { service, heard } = withLife();
    const answer = await service.addWriterComment(post!.id, { content: "Answered", replyTo: held.id }, WRITER);
    expect(answer).toMatchObject({ status: "approved", byAuthor: true, author: "Ada Writer", parentId: held.id });
    // What follows a comment's life hears of the answered comment, then of the writer's reply to it.
    expect(heard).toEqual([[[held.id, null, null]], [[answer.id, held.id, TEST_ADMIN.id]]]);
    const page = await comments().listPublicComments(post!.id);
    expect(page.items.map((thread) => [thread.id, thread.replies.map((reply) => reply.id)])).toEqual([
      [held.id, [answer.id]],
    ]);
    const row = await blog.handle.db
      .selectFrom("comments")
      .select(["author_user_id", "ip_hash"])
      .where("id", "=", answer.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ author_user_id: TEST_ADMIN.id, ip_hash: null });

    await comments().saveSettings({ holdAll: false, blocklist: "", closeAfterDays: 1 });
    blog.clock.advance(2 * 24 * 60 * 60 * 1000);
    await expect(comments().addComment(post!.id, { author: "Bo", content: "Late" })).rejects.toSatisfy((error) =>
      isDomainError(error, "COMMENTS_CLOSED"),
    );
    await expect(comments().addWriterComment(post!.id, { content: "Still here" }, WRITER)).resolves.toMatchObject({
      status: "approved",
    });
  });

  it("hides a thread whose comment is marked as spam until it is approved again, and deletes replies with their comment", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const question = await comments().addComment(post!.id, { author: "Ann", content: "Q" }, visitor("203.0.113.7"));
    blog.clock.advance(20_000);
    const reply = await comments().addComment(post!.id, { author: "Bo", content: "A", replyTo: question.id });
    const { service, heard } = withLife();

    await comments().moderate("spam", [question.id]);
    expect(await comments().listPublicComments(post!.id)).toMatchObject({ items: [], total: 0, commentCount: 0 });
    const approvedTab = await comments().listForModeration({ status: "approved" });
    expect(approvedTab.comments).toMatchObject([
      { id: reply.id, parent: { author: "Ann", content: "Q", status: "spam" } },
    ]);

    await service.moderate("approve", [question.id]);
    expect(heard).toEqual([[[question.id, null, null]]]);
    const back = await comments().listPublicComments(post!.id);
    expect(back.items.map((thread) => thread.replies.map((item) => item.id))).toEqual([[reply.id]]);
    expect(back.commentCount).toBe(2);

    expect(await comments().moderate("delete", [question.id])).toBe(2);
    const left = await blog.handle.db.selectFrom("comments").select("id").where("post_id", "=", post!.id).execute();
    expect(left).toEqual([]);
  });

  it("posts a signed-in writer's reply from the post page as theirs and lands on its thread's page", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const question = await comments().addComment(post!.id, { author: "Ann", content: "A question" });
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN, "203.0.113.50");
    const request = postForm(`http://blog.test/blog/${post!.slug}`, {
      author: "Ignored",
      content: "An answer",
      replyTo: question.id,
    });
    const outcome = await settle(() => postAction(routeArgs(request, context, { slug: post!.slug }) as never));
    expect(outcome.status).toBe(303);
    const [thread] = (await comments().listPublicComments(post!.id)).items;
    const answer = thread!.replies[0]!;
    expect(answer).toMatchObject({ author: TEST_ADMIN.username, content: "An answer", byAuthor: true });
    expect(outcome.headers.get("Location")).toBe(`/blog/${post!.slug}#comment-${answer.id}`);
  });

  it("takes a visitor's reply in at most seven statements, and a refused one keeps its text for the form", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const question = await comments().addComment(post!.id, { author: "Ann", content: "A question" });
    const recorded = recordStatements(blog.handle.db);
    const services = createServices({
      db: recorded.db,
      dialect,
      now: blog.clock.now,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    const { context } = createRouteTestContext(services, null, "203.0.113.41");
    const reply = (fields: Record<string, string>) =>
      settle(() =>
        postAction(
          routeArgs(postForm(`http://blog.test/blog/${post!.slug}`, fields), context, { slug: post!.slug }) as never,
        ),
      );
    const outcome = await reply({ author: "Bo", content: "An answer", website: "", replyTo: question.id });
    expect(outcome.status).toBe(303);
    expect(recorded.statements.length).toBeLessThanOrEqual(7);

    blog.clock.advance(60_000);
    const refused = await reply({ author: "Bo", content: "To nothing", website: "", replyTo: "missing" });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        values: { author: "Bo", content: "To nothing" },
        formError: "The comment you are replying to is no longer available",
      },
    });
  });
});
