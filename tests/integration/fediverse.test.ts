import { describe, expect, it } from "vitest";
import { DEFAULT_FEDIVERSE_SETTINGS, fediverseSettingsSchema } from "#domain/fediverse.ts";
import { testDialects } from "../support/databases.ts";
import type { Post, PostInput } from "#domain/post.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { useTestBlog } from "../support/test-blog.ts";

const SITE = "http://localhost:3000";
const OWNER = { label: "owner" };
const MINUTE = 60_000;

function follow(user: string, server = "social.example") {
  return {
    actorUrl: `https://${server}/users/${user}`,
    handle: `@${user}@${server}`,
    inboxUrl: `https://${server}/users/${user}/inbox`,
    sharedInboxUrl: `https://${server}/inbox`,
    followActivityId: `https://${server}/follows/${user}`,
  };
}

describe.each(testDialects())("the fediverse service on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  /** A post, a minute after the one before. */
  async function makePost(overrides: Partial<PostInput> = {}): Promise<Post> {
    blog.clock.advance(MINUTE);
    return blog.services.posts.createPost(buildPostInput(overrides), TEST_WRITER);
  }

  describe("followers", () => {
    it("are accepted at once, listed newest first with their server, and leave with Undo", async () => {
      const { services, clock } = blog;
      expect(await services.fediverse.followFrom(follow("ada"))).toMatchObject({ state: "accepted" });
      clock.advance(MINUTE);
      await services.fediverse.followFrom(follow("bob", "other.example"));

      const list = await services.fediverse.listFollowers();
      expect(list).toMatchObject({ total: 2, page: 1, pageCount: 1 });
      expect(list.items.map(({ handle, server, state }) => ({ handle, server, state }))).toEqual([
        { handle: "@bob@other.example", server: "other.example", state: "accepted" },
        { handle: "@ada@social.example", server: "social.example", state: "accepted" },
      ]);
      expect(await services.fediverse.countFollowers()).toEqual({ accepted: 2, pending: 0 });

      expect(await services.fediverse.unfollowFrom(follow("ada").actorUrl)).toBe(true);
      expect(await services.fediverse.unfollowFrom(follow("ada").actorUrl)).toBe(false);
      expect((await services.fediverse.listFollowers()).items.map((item) => item.handle)).toEqual([
        "@bob@other.example",
      ]);
    });

    it("wait for the owner when follows are approved by hand, and keep their state when they follow again", async () => {
      const { services } = blog;
      await services.fediverse.saveSettings({ ...DEFAULT_FEDIVERSE_SETTINGS, approveFollowsByHand: true }, OWNER);
      const { id, state } = (await services.fediverse.followFrom(follow("ada")))!;
      expect(state).toBe("pending");
      expect(await services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 1 });
      expect((await services.fediverse.listFollowers({ state: "pending" })).items).toHaveLength(1);

      const approved = await services.fediverse.approveFollower(id);
      expect(approved).toMatchObject({
        id,
        state: "accepted",
        inboxUrl: "https://social.example/users/ada/inbox",
        followActivityId: "https://social.example/follows/ada",
      });
      expect(await services.fediverse.followFrom({ ...follow("ada"), followActivityId: "https://x/2" })).toEqual({
        id,
        state: "accepted",
      });
      expect(await services.fediverse.findFollower(id)).toMatchObject({ followActivityId: "https://x/2" });
      expect(await services.fediverse.approveFollower("no-such-id")).toBeUndefined();
    });

    it("can be removed by the owner, who gets back what is needed to tell them", async () => {
      const { services } = blog;
      const { id } = (await services.fediverse.followFrom(follow("ada")))!;
      expect(await services.fediverse.removeFollower(id)).toMatchObject({
        actorUrl: "https://social.example/users/ada",
        followActivityId: "https://social.example/follows/ada",
      });
      expect(await services.fediverse.removeFollower(id)).toBeUndefined();
      expect(await services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 0 });
    });

    it("page through accepted followers' inboxes by cursor, pending ones left out", async () => {
      const { services } = blog;
      for (const user of ["a", "b", "c", "d", "e"]) await services.fediverse.followFrom(follow(user));
      await services.fediverse.saveSettings({ ...DEFAULT_FEDIVERSE_SETTINGS, approveFollowsByHand: true }, OWNER);
      await services.fediverse.followFrom(follow("waiting"));

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await services.fediverse.followerInboxes({ cursor, limit: 2 });
        seen.push(...page.items.map((item) => item.inboxUrl));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen.toSorted()).toEqual(["a", "b", "c", "d", "e"].map((user) => follow(user).inboxUrl));
    });
  });

  describe("the blocked list", () => {
    it("names servers and actors, and a save removes the followers it names", async () => {
      const { services } = blog;
      await services.fediverse.followFrom(follow("ada", "spam.example"));
      await services.fediverse.followFrom(follow("bob", "eu.spam.example"));
      await services.fediverse.followFrom(follow("troll"));
      await services.fediverse.followFrom(follow("friend"));

      await services.fediverse.saveSettings(
        { ...DEFAULT_FEDIVERSE_SETTINGS, blocked: "spam.example\nhttps://social.example/users/troll" },
        OWNER,
      );
      expect((await services.fediverse.listFollowers()).items.map((item) => item.handle)).toEqual([
        "@friend@social.example",
      ]);
      expect(await services.fediverse.isBlocked(new URL("https://spam.example/users/new"))).toBe(true);
      expect(await services.fediverse.isBlocked(new URL("https://social.example/users/troll"))).toBe(true);
      expect(await services.fediverse.isBlocked(new URL("https://social.example/users/friend"))).toBe(false);
      expect(await services.fediverse.settings()).toMatchObject({
        blocked: "spam.example\nhttps://social.example/users/troll",
      });
    });

    it("covers a blocked server however its host is written, and a save removes its followers so written", async () => {
      const { services } = blog;
      await services.fediverse.followFrom(follow("ada", "spam.example."));
      await services.fediverse.followFrom(follow("bob", "eu.xn--bcher-kva.example"));
      await services.fediverse.followFrom(follow("friend"));

      // As the settings form reads it: the schema gives the service what it stores.
      const settings = fediverseSettingsSchema.parse({ blocked: "Spam.Example.\nbücher.example" });
      await services.fediverse.saveSettings(settings, OWNER);
      expect((await services.fediverse.listFollowers()).items.map((item) => item.handle)).toEqual([
        "@friend@social.example",
      ]);
      expect(await services.fediverse.isBlocked(new URL("https://SPAM.example./users/new"))).toBe(true);
      expect(await services.fediverse.isBlocked(new URL("https://eu.bücher.example./users/new"))).toBe(true);
      expect((await services.fediverse.settings()).blocked).toBe("spam.example\nxn--bcher-kva.example");
    });

    it("is read from the database by another server within a second, and its listeners told", async () => {
      const { services, clock } = blog;
      expect(await services.fediverse.isBlocked(new URL("https://spam.example/users/a"))).toBe(false);
      const { createServices } = await import("../../server/composition.ts");
      const other = createServices({ db: blog.handle.db, dialect, now: clock.now, commentIpSalt: "salt" });
      const seen: string[] = [];
      services.fediverse.onChange((settings) => seen.push(settings.blocked));
      await other.fediverse.saveSettings({ ...DEFAULT_FEDIVERSE_SETTINGS, blocked: "spam.example" }, OWNER);
      clock.advance(1001);
      expect(await services.fediverse.isBlocked(new URL("https://spam.example/users/a"))).toBe(true);
      expect(seen).toEqual(["spam.example"]);
      clock.advance(1001);
      await services.fediverse.settings();
      expect(seen).toEqual(["spam.example"]);
    });

    it("tells who listens when the settings are saved", async () => {
      const { services } = blog;
      const seen: string[] = [];
      services.fediverse.onChange((settings) => seen.push(settings.handle));
      await services.fediverse.saveSettings({ ...DEFAULT_FEDIVERSE_SETTINGS, handle: "notes" }, OWNER);
      expect(seen).toEqual(["notes"]);
      expect((await services.fediverse.settings()).handle).toBe("notes");
    });
  });

  describe("posts as the fediverse names them", () => {
    it("are found by object id or page address, on this site, while public", async () => {
      const { services, clock } = blog;
      const post = await makePost({ title: "Hello" });
      const draft = await makePost({ published: false });
      const later = new Date(clock.now().getTime() + 60 * MINUTE).toISOString().slice(0, 16);
      const scheduled = await services.posts.createPost(
        buildPostInput({ publishAt: later, publishAtOffset: "0" }),
        TEST_WRITER,
      );
      const find = (url: string) => services.fediverse.findPublicPostId(new URL(url));

      expect(await find(`${SITE}/ap/posts/${post.id}`)).toBe(post.id);
      expect(await find(`${SITE}/blog/${post.slug}`)).toBe(post.id);
      await services.posts.updatePost(
        post.id,
        buildPostInput({ title: "Hello again", slug: "hello-again" }),
        TEST_WRITER,
      );
      expect(await find(`${SITE}/blog/${post.slug}`)).toBe(post.id);
      expect(await find(`https://elsewhere.example/ap/posts/${post.id}`)).toBeUndefined();
      expect(await find(`${SITE}/ap/posts/${draft.id}`)).toBeUndefined();
      expect(await find(`${SITE}/ap/posts/${scheduled.id}`)).toBeUndefined();
      expect(await find(`${SITE}/ap/posts/no-such-post`)).toBeUndefined();
      expect(await find(`${SITE}/blog/%E0%A4%A`)).toBeUndefined();
    });
  });

  describe("likes and boosts", () => {
    it("count once per actor, are taken back only by their actor, and go with their post", async () => {
      const { services } = blog;
      const post = await makePost();
      const other = await makePost();
      const like = (user: string, id = `https://social.example/likes/${user}`) => ({
        postId: post.id,
        kind: "like" as const,
        actorUrl: follow(user).actorUrl,
        activityId: id,
      });
      expect(await services.fediverse.recordReaction(like("ada"))).toBe(true);
      expect(await services.fediverse.recordReaction(like("ada"))).toBe(false);
      expect(await services.fediverse.recordReaction(like("ada", "https://social.example/likes/again"))).toBe(false);
      await services.fediverse.recordReaction(like("bob"));
      await services.fediverse.recordReaction({ ...like("ada", "https://social.example/boosts/1"), kind: "announce" });

      expect(await services.fediverse.postCounts(post.id)).toEqual({ likes: 2, boosts: 1, replies: 0 });
      expect(await services.fediverse.postCountsFor([post.id, other.id])).toEqual(
        new Map([
          [post.id, { likes: 2, boosts: 1, replies: 0 }],
          [other.id, { likes: 0, boosts: 0, replies: 0 }],
        ]),
      );

      const bobs = { activityId: "https://social.example/likes/bob", actorUrl: follow("ada").actorUrl };
      expect(await services.fediverse.undoReaction(bobs)).toBe(false);
      expect(await services.fediverse.undoReaction({ ...bobs, actorUrl: follow("bob").actorUrl })).toBe(true);
      expect(
        await services.fediverse.undoReaction({ postId: post.id, kind: "announce", actorUrl: follow("ada").actorUrl }),
      ).toBe(true);
      expect(await services.fediverse.postCounts(post.id)).toEqual({ likes: 1, boosts: 0, replies: 0 });

      await services.posts.deletePost(post.id);
      expect(await services.fediverse.postCounts(post.id)).toEqual({ likes: 0, boosts: 0, replies: 0 });
    });
  });

  describe("replies", () => {
    const reply = (
      postId: string,
      overrides: Partial<Parameters<typeof blog.services.fediverse.receiveReply>[0]> = {},
    ) => ({
      postId,
      noteUrl: "https://social.example/notes/1",
      actorUrl: "https://social.example/users/ada",
      actorHandle: "@ada@social.example",
      authorName: "Ada",
      contentHtml: '<p><a href="http://localhost:3000/ap/users/blog" class="mention">@blog</a> Great <b>post</b>!</p>',
      ...overrides,
    });

    it("are held comments with the author's handle and profile, shown once approved", async () => {
      const { services } = blog;
      const post = await makePost();
      const received = await services.fediverse.receiveReply(
        reply(post.id, { published: new Date("2026-03-05T10:00:30Z") }),
      );
      expect(received).toMatchObject({ outcome: "held" });

      const held = await services.comments.listForModeration({ status: "pending" });
      expect(held.comments).toEqual([
        expect.objectContaining({
          author: "Ada",
          content: "Great post!",
          status: "pending",
          heldReason: "Reply from the fediverse",
          ipHash: null,
          createdAt: "2026-03-05T10:00:30.000Z",
          remoteAuthor: { handle: "@ada@social.example", url: "https://social.example/users/ada" },
        }),
      ]);
      expect((await services.comments.listPublicComments(post.id)).total).toBe(0);
      expect(await services.fediverse.postCounts(post.id)).toEqual({ likes: 0, boosts: 0, replies: 1 });

      await services.comments.moderate("approve", [received!.commentId]);
      expect((await services.comments.listPublicComments(post.id)).items).toEqual([
        expect.objectContaining({
          author: "Ada",
          content: "Great post!",
          remoteAuthor: { handle: "@ada@social.example", url: "https://social.example/users/ada" },
        }),
      ]);
    });

    it("arrive once, and an edit by their author is held again", async () => {
      const { services } = blog;
      const post = await makePost();
      const first = await services.fediverse.receiveReply(reply(post.id));
      expect(await services.fediverse.receiveReply(reply(post.id))).toEqual({
        commentId: first!.commentId,
        outcome: "unchanged",
      });
      await services.comments.moderate("approve", [first!.commentId]);

      expect(await services.fediverse.receiveReply(reply(post.id, { contentHtml: "<p>Edited</p>" }))).toEqual({
        commentId: first!.commentId,
        outcome: "edited",
      });
      const held = await services.comments.listForModeration({ status: "pending" });
      expect(held.comments.map((comment) => comment.content)).toEqual(["Edited"]);
      const search = await services.comments.listForModeration({ status: "pending", search: "@ADA@social" });
      expect(search.comments.map((comment) => comment.content)).toEqual(["Edited"]);

      // Once marked as spam, an edit does not bring it back.
      await services.comments.moderate("spam", [first!.commentId]);
      expect(await services.fediverse.receiveReply(reply(post.id, { contentHtml: "<p>Honest</p>" }))).toMatchObject({
        outcome: "unchanged",
      });
      expect(await services.comments.countPending()).toBe(0);

      // Someone else naming the same note changes nothing.
      const forged = await services.fediverse.receiveReply(
        reply(post.id, { actorUrl: "https://evil.example/users/x", contentHtml: "<p>Spam</p>" }),
      );
      expect(forged).toBeUndefined();
      expect(await services.comments.countPending()).toBe(0);
    });

    it("are removed when their author deletes the note, and only then", async () => {
      const { services } = blog;
      const post = await makePost();
      await services.fediverse.receiveReply(reply(post.id));
      expect(
        await services.fediverse.removeReply("https://social.example/notes/1", "https://evil.example/users/x"),
      ).toBe(false);
      expect(
        await services.fediverse.removeReply("https://social.example/notes/1", "https://social.example/users/ada"),
      ).toBe(true);
      expect((await services.comments.listForModeration({ status: "pending" })).comments).toEqual([]);
    });

    it("are not taken for drafts, closed posts, or without text", async () => {
      const { services } = blog;
      const draft = await makePost({ published: false });
      const closed = await makePost({ commentsClosed: true });
      const open = await makePost();
      expect(await services.fediverse.receiveReply(reply(draft.id))).toBeUndefined();
      expect(await services.fediverse.receiveReply(reply(closed.id))).toBeUndefined();
      expect(
        await services.fediverse.receiveReply(reply(open.id, { contentHtml: '<p><img src="x"></p>' })),
      ).toBeUndefined();
      expect(await services.comments.countPending()).toBe(0);
    });
  });
});
