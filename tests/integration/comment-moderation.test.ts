import { describe, expect, it } from "vitest";
import { isDomainError, RateLimitedError } from "#domain/errors.ts";
import { MODERATION_PAGE_SIZE } from "../../server/comments/service.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { useTestBlog } from "../support/test-blog.ts";
import { loader as commentsLoader } from "../../app/routes/admin/comments.tsx";
import { createRouteTestContext, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";

const visitor = (clientAddress: string, honeypot = "") => ({ clientAddress, honeypot });

describe.each(testDialects())("comment moderation on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const comments = () => blog.services.comments;
  const publicComments = async (postId: string) => (await blog.services.comments.listPublicComments(postId)).items;

  it("publishes an ordinary comment at once and stores only a hash of the address", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const saved = await comments().addComment(post!.id, { author: "Ann", content: "Nice" }, visitor("203.0.113.5"));
    expect(saved.status).toBe("approved");
    expect((await publicComments(post!.id)).map((comment) => comment.id)).toEqual([saved.id]);
    const row = await blog.handle.db.selectFrom("comments").selectAll().executeTakeFirstOrThrow();
    expect(row.ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain("203.0.113.5");
  });

  it("holds a comment with three links: not public, shown only to whoever holds its id", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const content = "https://a.example https://b.example https://c.example";
    const held = await comments().addComment(post!.id, { author: "Ann", content }, visitor("203.0.113.6"));
    expect(held.status).toBe("pending");
    expect(await publicComments(post!.id)).toEqual([]);
    const post_ = { id: post!.id, createdAt: post!.createdAt, commentsClosed: false };
    expect((await comments().describeThread(post_, [held.id])).awaitingModeration.map((c) => c.id)).toEqual([held.id]);
    expect((await comments().describeThread(post_, [])).awaitingModeration).toEqual([]);
    const listed = await comments().listForModeration({});
    expect(listed.status).toBe("pending");
    expect(listed.comments).toMatchObject([{ id: held.id, heldReason: "3 links", postTitle: post!.title }]);
  });

  it("holds by blocklist and by 'hold every comment', read from the saved settings", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    await comments().saveSettings({ holdAll: false, blocklist: "casino", closeAfterDays: null });
    const blocked = await comments().addComment(post!.id, { author: "Ann", content: "Best CASINO" });
    expect(blocked.status).toBe("pending");
    await comments().saveSettings({ holdAll: true, blocklist: "", closeAfterDays: null });
    expect(await comments().readSettings()).toEqual({ holdAll: true, blocklist: "", closeAfterDays: null });
    expect((await comments().addComment(post!.id, { author: "Bo", content: "Hello" })).status).toBe("pending");
    expect(await comments().countPending()).toBe(2);
  });

  it("refuses a filled honeypot, a duplicate within a day and a second comment within 15 seconds, storing none", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const input = { author: "Ann", content: "Same words" };
    await expect(comments().addComment(post!.id, input, visitor("198.51.100.9", "x"))).rejects.toSatisfy((error) =>
      isDomainError(error, "COMMENT_REFUSED"),
    );
    await comments().addComment(post!.id, input, visitor("198.51.100.9"));
    blog.clock.advance(5_000);
    const flood = await comments()
      .addComment(post!.id, { author: "Ann", content: "Other words" }, visitor("198.51.100.9"))
      .catch((error: unknown) => error);
    expect(flood).toBeInstanceOf(RateLimitedError);
    expect(flood).toMatchObject({ code: "COMMENT_FLOOD", retryAfterSeconds: 10 });
    await expect(
      comments().addComment(post!.id, { author: "Bo", content: "Other words" }, visitor("198.51.100.10")),
    ).resolves.toMatchObject({ status: "approved" });

    blog.clock.advance(60 * 60 * 1000);
    await expect(comments().addComment(post!.id, input, visitor("198.51.100.9"))).rejects.toSatisfy((error) =>
      isDomainError(error, "DUPLICATE_COMMENT"),
    );
    blog.clock.advance(24 * 60 * 60 * 1000);
    await expect(comments().addComment(post!.id, input, visitor("198.51.100.9"))).resolves.toMatchObject({
      status: "approved",
    });
    expect((await publicComments(post!.id)).map((comment) => comment.author)).toEqual(["Ann", "Bo", "Ann"]);
  });

  it("refuses comments on a closed post and on posts older than the site-wide limit", async () => {
    const [open, closed] = await createPosts(blog.services, blog.clock, [{}, { commentsClosed: true }]);
    await expect(comments().addComment(closed!.id, { author: "A", content: "B" })).rejects.toSatisfy((error) =>
      isDomainError(error, "COMMENTS_CLOSED"),
    );
    await comments().saveSettings({ holdAll: false, blocklist: "", closeAfterDays: 3 });
    blog.clock.advance(3 * 24 * 60 * 60 * 1000);
    await expect(comments().addComment(open!.id, { author: "A", content: "B" })).rejects.toSatisfy((error) =>
      isDomainError(error, "COMMENTS_CLOSED"),
    );
    const thread = await comments().describeThread(open!, []);
    expect(thread.open).toBe(false);
  });

  it("moves comments between tabs, counts each tab, and lists the spam address's later comments as held", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const spammer = visitor("192.0.2.66");
    const first = await comments().addComment(post!.id, { author: "Spammy", content: "Buy" }, spammer);
    const other = await comments().addComment(post!.id, { author: "Kind", content: "Hi" }, visitor("192.0.2.1"));
    expect(await comments().moderate("spam", [first.id])).toBe(1);
    expect((await comments().listForModeration({})).counts).toEqual({ pending: 0, approved: 1, spam: 1 });

    blog.clock.advance(60_000);
    const later = await comments().addComment(post!.id, { author: "Spammy", content: "Buy again" }, spammer);
    expect(later.status).toBe("pending");
    expect((await comments().listForModeration({})).comments).toMatchObject([
      { id: later.id, heldReason: "Address marked as spam before" },
    ]);

    // Approving the spam comment forgives the address.
    await comments().moderate("approve", [first.id, later.id]);
    blog.clock.advance(60_000);
    const forgiven = await comments().addComment(post!.id, { author: "Spammy", content: "Third" }, spammer);
    expect(forgiven.status).toBe("approved");

    await comments().moderate("unapprove", [other.id]);
    await comments().moderate("delete", [forgiven.id]);
    expect((await comments().listForModeration({ status: "approved" })).comments.map((c) => c.id)).toEqual([
      later.id,
      first.id,
    ]);
    expect((await comments().listForModeration({})).counts).toEqual({ pending: 1, approved: 2, spam: 0 });
    expect((await publicComments(post!.id)).map((comment) => comment.id)).toEqual([later.id, first.id]);
  });

  it("pages, filters by post and searches author or text", async () => {
    const [post, otherPost] = await createPosts(blog.services, blog.clock, [{}, {}]);
    for (let index = 0; index < MODERATION_PAGE_SIZE + 2; index += 1) {
      blog.clock.advance(1000);
      await comments().addComment(post!.id, { author: `Reader ${index}`, content: `Comment ${index}` });
    }
    await comments().addComment(otherPost!.id, { author: "Elsewhere", content: "100% sure_thing" });

    const second = await comments().listForModeration({ status: "approved", page: 2 });
    expect(second).toMatchObject({ page: 2, pageCount: 2 });
    // 53 in all: the 50 newest on page 1, the oldest three here.
    expect(second.comments.map((comment) => comment.author)).toEqual(["Reader 2", "Reader 1", "Reader 0"]);
    const onOther = await comments().listForModeration({ postId: otherPost!.id });
    expect(onOther.counts.approved).toBe(1);
    expect(onOther.comments.map((comment) => comment.author)).toEqual(["Elsewhere"]);
    const byText = await comments().listForModeration({ search: "100%" });
    expect(byText.comments.map((comment) => comment.author)).toEqual(["Elsewhere"]);
    const byAuthor = await comments().listForModeration({ search: "reader 5" });
    expect(byAuthor.comments.map((comment) => comment.author).toSorted()).toEqual([
      "Reader 5",
      "Reader 50",
      "Reader 51",
    ]);
  });

  it("answers 404 to a page number that names no page, and puts the tab it chose for a bare address in the URL", async () => {
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    await comments().addComment(post!.id, { author: "Reader", content: "Hello" }, visitor("203.0.113.9"));
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const load = (search: string) => () =>
      commentsLoader(routeArgs(new Request(`http://blog.test/admin/comments${search}`), context) as never);
    for (const page of ["abc", "0", "-1", "1.5"]) {
      expect((await settle(load(`?status=approved&page=${page}`))).status, page).toBe(404);
    }
    expect((await settle(load("?status=approved&page=9"))).body).toMatchObject({ page: 1, pageCount: 1 });
    const bare = await settle(load("?q=hello"));
    expect(bare.status).toBe(302);
    expect(bare.headers.get("Location")).toBe("/admin/comments?status=approved&q=hello");
  });
});
