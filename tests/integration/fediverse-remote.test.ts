import { Follow, Like } from "@fedify/vocab";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { testDialects } from "../support/databases.ts";
import { buildPostInput } from "../support/factories.ts";
import { type FediversePeer, startFediversePeer } from "../support/fediverse-peer.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";

// The blog as a second ActivityPub server sees it (issue 25, "Done when"): the peer (a small
// Fedify app, tests/support/fediverse-peer.ts) looks the blog up by WebFinger, follows it, gets
// the Accept, gets Create(Article) when a post is published and Delete when it is unpublished,
// likes the post and replies to it; the reply waits in moderation. Forged and unsigned
// deliveries are answered 401 and change nothing. The blog runs in this process on a real port,
// with its queue and store in the test's database.

// Each step crosses two servers, a queue and a sweep: generous limits for a loaded machine.
const eventually = { timeout: 20_000, interval: 25 };
const SLOW = { timeout: 60_000 };

describe.each(testDialects())("the blog followed from another server on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;
  let peer: FediversePeer;

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect, { sweepOnChanges: true });
    peer = await startFediversePeer();
  });
  afterEach(async () => {
    await peer?.close();
    await blog?.close();
  });

  const received = (type: string, objectId?: string) =>
    peer.received.filter((item) => item.type === type && (objectId === undefined || item.objectId === objectId));

  test(
    "is found by its handle, followed, and tells its follower about a post, its likes and replies",
    SLOW,
    async () => {
      const alice = peer.actor("alice");
      const blogActor = await peer.lookup(`@blog@${new URL(blog.siteUrl).host}`);
      expect(blogActor.id?.href).toBe(`${blog.siteUrl}/ap/users/blog`);

      const follow = await peer.follow(alice, blogActor);
      await vi.waitFor(() => expect(received("Accept")).toHaveLength(1), eventually);
      expect(received("Accept")[0]).toMatchObject({ recipient: "alice", objectId: follow.id?.href });
      const followers = await blog.services.fediverse.listFollowers({ state: "accepted" });
      expect(followers.items).toMatchObject([{ actorUrl: alice.id.href, handle: alice.handle }]);

      const post = await blog.services.posts.createPost(buildPostInput({ title: "Hello, fediverse" }));
      const objectId = `${blog.siteUrl}/ap/posts/${post.id}`;
      await vi.waitFor(() => expect(received("Create", objectId)).toHaveLength(1), eventually);
      expect(received("Create", objectId)[0]).toMatchObject({ objectType: "Article", actorId: blogActor.id?.href });

      await peer.like(alice, blogActor, new URL(objectId));
      await vi.waitFor(
        async () => expect(await blog.services.fediverse.postCounts(post.id)).toMatchObject({ likes: 1 }),
        eventually,
      );

      const noteId = await peer.reply(
        alice,
        blogActor,
        new URL(objectId),
        '<p>Lovely post! <script>alert("x")</script><a href="javascript:alert(1)">me</a></p>',
      );
      await vi.waitFor(async () => {
        const held = await blog.services.comments.listForModeration({ status: "pending" });
        expect(held.comments).toHaveLength(1);
      }, eventually);
      const [reply] = (await blog.services.comments.listForModeration({ status: "pending" })).comments;
      expect(reply).toMatchObject({
        postId: post.id,
        remoteAuthor: { handle: alice.handle, url: alice.id.href },
      });
      expect(reply!.content).toContain("Lovely post!");
      expect(reply!.content).not.toMatch(/script|javascript:/);
      const before = await blog.services.comments.describeThread(post);
      expect(before.comments.items).toEqual([]);
      await blog.services.comments.moderate("approve", [reply!.id]);
      const after = await blog.services.comments.describeThread(post);
      expect(after.comments.items).toMatchObject([{ id: reply!.id, remoteAuthor: { handle: alice.handle } }]);
      expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 1, boosts: 0, replies: 1 });

      await peer.deleteNote(alice, blogActor, noteId);
      await vi.waitFor(
        async () => expect((await blog.services.comments.describeThread(post)).comments.items).toEqual([]),
        eventually,
      );

      await blog.services.posts.updatePost(post.id, { ...buildPostInput({ title: post.title }), published: false });
      await vi.waitFor(() => expect(received("Delete", objectId)).toHaveLength(1), eventually);
      expect(received("Delete", objectId)[0]).toMatchObject({ objectType: "Tombstone" });
    },
  );

  test("answers 401 to unsigned and forged deliveries, which change nothing", SLOW, async () => {
    const alice = peer.actor("alice");
    const mallory = peer.actor("mallory");
    const blogActor = await peer.lookup(`@blog@${new URL(blog.siteUrl).host}`);
    const post = await blog.services.posts.createPost(buildPostInput());
    const objectId = new URL(`${blog.siteUrl}/ap/posts/${post.id}`);
    const like = new Like({ id: new URL(`${alice.id.href}#likes/1`), actor: alice.id, object: objectId });
    const follow = new Follow({ id: new URL(`${alice.id.href}#follows/1`), actor: alice.id, object: blogActor.id });
    const inboxes = [blogActor.inboxId!, blogActor.endpoints!.sharedInbox!];

    for (const inbox of inboxes) {
      const unsigned = await fetch(inbox, {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body: JSON.stringify(await like.toJsonLd()),
      });
      expect(unsigned.status, `unsigned to ${inbox.href}`).toBe(401);
      // Signed with a key that is not alice's, though it claims to be.
      expect((await peer.forge(alice, inbox, like)).status, `forged key to ${inbox.href}`).toBe(401);
      // Mallory's genuine signature on a like in alice's name.
      expect((await peer.forge(alice, inbox, like, mallory)).status, `another's name to ${inbox.href}`).toBe(401);
      expect((await peer.forge(alice, inbox, follow)).status, `forged follow to ${inbox.href}`).toBe(401);
      expect((await peer.forge(alice, inbox, follow, mallory)).status, `follow in another's name`).toBe(401);
    }
    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 0 });
    expect(peer.received).toEqual([]);
    expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 0, boosts: 0, replies: 0 });

    // The same like with alice's own signature is taken: the refusals above were the signatures'.
    expect((await peer.forge(alice, inboxes[0]!, like, alice)).status).toBe(202);
    await vi.waitFor(
      async () => expect(await blog.services.fediverse.postCounts(post.id)).toMatchObject({ likes: 1 }),
      eventually,
    );
  });
});
