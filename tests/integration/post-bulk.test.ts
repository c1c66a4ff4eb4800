import { describe, expect, it } from "vitest";
import { describeBulkOutcome } from "#domain/post-bulk.ts";
import { action as postsAction, loader as postsLoader } from "../../app/routes/admin/posts.tsx";
import { createServices } from "../../server/composition.ts";
import type { SessionUser } from "../../server/accounts/auth.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_PASSWORD_COST, TEST_WRITER } from "../support/factories.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  settle(() => handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs));

const EDITOR: SessionUser = { ...TEST_ADMIN, id: "editor-1", email: "ed@example.com", username: "ed", role: "editor" };

describe.each(testDialects())("bulk changes in the posts list, on $dialect", (database) => {
  const blog = useTestBlog(database);
  const create = (overrides: Parameters<typeof buildPostInput>[0], services = blog.services) => {
    blog.clock.advance(60_000);
    return services.posts.createPost(buildPostInput(overrides), TEST_WRITER);
  };
  /** A second app server's services over the same database, with SMTP_URL set. */
  const emailingServices = () =>
    createServices({
      db: blog.handle.db,
      dialect: database.dialect,
      now: blog.clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      siteUrl: "https://blog.example",
      emailOn: true,
    });
  const stored = (id: string) => blog.services.posts.getPostForEditing(id);

  it("publishes each draft through its own save, refusing by name one that breaks the publishing rules", async () => {
    const ready = await create({ title: "Ready draft", published: false });
    const bare = await create({ title: "Bare draft", published: false, excerpt: "", coverImage: "" });
    const live = await create({ title: "Live post" });
    const outcome = await blog.services.posts.changePosts("publish", [ready.id, bare.id, live.id], TEST_WRITER);
    expect(describeBulkOutcome(outcome)).toEqual([
      "Published “Ready draft”.",
      "“Bare draft” was not published: Excerpt is required; Cover image URL is required.",
      "“Live post” is already published.",
    ]);
    expect((await stored(ready.id)).published).toBe(true);
    expect((await stored(bare.id)).published).toBe(false);
    // As a single save: the public lists show it, and the audit log names the writer.
    expect((await blog.services.posts.listPublishedPosts()).items.map((post) => post.title)).toContain("Ready draft");
    const audit = await blog.handle.db.selectFrom("audit_log").select(["action", "detail"]).execute();
    expect(audit).toContainEqual(expect.objectContaining({ action: "post-published", detail: "Ready draft" }));
  });

  it("unpublishes published and scheduled posts, and leaves a draft as it is", async () => {
    const live = await create({ title: "Live one" });
    const ahead = await create({ title: "Ahead one", publishAt: "2030-01-01T09:00" });
    const draft = await create({ title: "Draft one", published: false });
    const outcome = await blog.services.posts.changePosts("unpublish", [live.id, ahead.id, draft.id], TEST_WRITER);
    expect(describeBulkOutcome(outcome)).toEqual(["Unpublished 2 posts.", "“Draft one” is already a draft."]);
    expect((await stored(live.id)).published).toBe(false);
    expect(await stored(ahead.id)).toMatchObject({ published: false, publishAt: null });
    expect((await blog.services.posts.listPublishedPosts()).items).toEqual([]);
  });

  it("leaves a scheduled post's time alone when asked to publish it", async () => {
    const ahead = await create({ title: "Scheduled one", publishAt: "2030-01-01T09:00" });
    const outcome = await blog.services.posts.changePosts("publish", [ahead.id], TEST_WRITER);
    expect(describeBulkOutcome(outcome)).toEqual([
      "No post was published.",
      "“Scheduled one” is already scheduled; open it to change its time.",
    ]);
    expect((await stored(ahead.id)).publishAt).toBe("2030-01-01T09:00:00.000Z");
  });

  it("deletes each post with its comments, passing over one already gone", async () => {
    const first = await create({ title: "First to go" });
    const second = await create({ title: "Second to go", published: false });
    const kept = await create({ title: "Kept" });
    await blog.services.comments.addApprovedComments(first.id, [
      { author: "Reader", content: "Nice", createdAt: blog.clock.now().toISOString() },
    ]);
    const outcome = await blog.services.posts.changePosts(
      "delete",
      [first.id, second.id, "no-such-post-000"],
      TEST_WRITER,
    );
    expect(describeBulkOutcome(outcome)).toEqual(["Deleted 2 posts."]);
    expect((await blog.services.posts.listAllPosts()).items.map((post) => post.title)).toEqual(["Kept"]);
    const comments = await blog.handle.db.selectFrom("comments").select("id").execute();
    expect(comments).toEqual([]);
    expect((await stored(kept.id)).published).toBe(true);
  });

  it("emails a post whose box is ticked as it is published, and only that one, as a single save would", async () => {
    const services = emailingServices();
    const boxed = await create({ title: "Boxed", published: false, emailSubscribers: true }, services);
    const plain = await create({ title: "Plain", published: false }, services);
    expect(boxed.newsletter).toBe("wanted");
    await services.posts.changePosts("publish", [boxed.id, plain.id], TEST_WRITER);
    expect((await services.posts.getPostForEditing(boxed.id)).newsletter).toBe("sent");
    expect((await services.posts.getPostForEditing(plain.id)).newsletter).toBe("closed");
  });

  describe("through the posts list", () => {
    const listUrl = (search: string) => `http://blog.test/admin/posts${search}`;
    const contextFor = (user: SessionUser | null, services = blog.services) =>
      createRouteTestContext(services, user).context;

    it("asks first, naming the ticked posts of the page and the email one of them sends", async () => {
      const services = emailingServices();
      const boxed = await create({ title: "Boxed draft", published: false, emailSubscribers: true }, services);
      const other = await create({ title: "Other draft", published: false }, services);
      const asked = await call(
        postsLoader,
        new Request(listUrl(`?change=publish&id=${boxed.id}&id=${other.id}&id=elsewhere`)),
        contextFor(TEST_ADMIN, services),
      );
      const { bulkQuestion } = asked.body as { bulkQuestion: unknown };
      expect(bulkQuestion).toEqual({
        change: "publish",
        posts: [
          { id: other.id, title: "Other draft", emailsSubscribers: false },
          { id: boxed.id, title: "Boxed draft", emailsSubscribers: true },
        ],
      });
      const nothing = await call(postsLoader, new Request(listUrl("?change=delete")), contextFor(TEST_ADMIN));
      expect((nothing.body as { bulkQuestion: unknown }).bulkQuestion).toEqual({
        problem: "Select at least one post first.",
      });
    });

    it("lets an editor publish in bulk, and answers the outcome in words", async () => {
      const draft = await create({ title: "Editor's pick", published: false });
      const answered = await call(
        postsAction,
        postForm(listUrl(""), { intent: "bulk", change: "publish", id: [draft.id] }),
        contextFor(EDITOR),
      );
      expect(answered).toMatchObject({ status: 200, body: { outcome: ["Published “Editor's pick”."] } });
      expect((await stored(draft.id)).published).toBe(true);
    });

    it("refuses a change with nothing ticked, and anyone signed out, changing nothing", async () => {
      const draft = await create({ title: "Untouched", published: false });
      const empty = await call(
        postsAction,
        postForm(listUrl(""), { intent: "bulk", change: "publish" }),
        contextFor(TEST_ADMIN),
      );
      expect(empty).toMatchObject({ status: 400, body: { errors: { id: "Select at least one post first." } } });
      const signedOut = await call(
        postsAction,
        postForm(listUrl(""), { intent: "bulk", change: "delete", id: [draft.id] }),
        contextFor(null),
      );
      expect(signedOut.status).toBe(302);
      expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
      expect((await stored(draft.id)).published).toBe(false);
    });
  });
});
