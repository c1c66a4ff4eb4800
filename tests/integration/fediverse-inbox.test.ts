import type { InboxContext } from "@fedify/fedify";
import { Temporal as TemporalPolyfill } from "@js-temporal/polyfill";
import { createFederation } from "@fedify/testing";
import {
  Accept,
  type Activity,
  Announce,
  Create,
  Delete,
  Endpoints,
  Follow,
  Like,
  Note,
  Person,
  Tombstone,
  Undo,
  Update,
} from "@fedify/vocab";
import { describe, expect, it } from "vitest";
import { DEFAULT_FEDIVERSE_SETTINGS } from "#domain/fediverse.ts";
import type { Post } from "#domain/post.ts";
import { createInboxListeners, registerInbox } from "../../server/fediverse/inbox.ts";
import { forgetGoneActor } from "../../server/fediverse/inbox-gate.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { useTestBlog } from "../support/test-blog.ts";

/** createServices' default SITE_URL, which the posts' object ids are on. */
const SITE = "http://localhost:3000";
const BLOG_ACTOR = `${SITE}/ap/users/blog`;
const OWNER = { label: "owner" };

function person(user: string, server = "social.example") {
  return new Person({
    id: new URL(`https://${server}/users/${user}`),
    preferredUsername: user,
    name: `${user[0]?.toUpperCase()}${user.slice(1)} Example`,
    inbox: new URL(`https://${server}/users/${user}/inbox`),
    endpoints: new Endpoints({ sharedInbox: new URL(`https://${server}/inbox`) }),
  });
}

const alice = person("alice");

function followFrom(actor: Person, id = `${actor.id?.href}#follows/1`) {
  return new Follow({ id: new URL(id), actor, object: new URL(BLOG_ACTOR) });
}

function noteBy(actor: Person, inReplyTo: string, content: string, id = "https://social.example/notes/1") {
  return new Note({
    id: new URL(id),
    attribution: actor.id,
    replyTarget: new URL(inReplyTo),
    content,
    // Node has no Temporal yet: Fedify runs on this polyfill, and its types name the standard one.
    published: TemporalPolyfill.Instant.from("2026-03-05T09:59:00Z") as unknown as Temporal.Instant,
  });
}

describe.each(testDialects())("the blog's inbox on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  /**
   * A mock federation (@fedify/testing) with the blog's actor path, the listeners over the real
   * services, and a context whose sent activities the test reads.
   */
  function inbox() {
    const federation = createFederation<null>({ contextData: null, origin: SITE });
    federation.setActorDispatcher("/ap/users/{identifier}", () => null);
    const listeners = createInboxListeners<null>({ fediverse: blog.services.fediverse, identifier: "blog" });
    const context = federation.createContext(new URL(SITE), null) as unknown as InboxContext<null>;
    return {
      federation,
      async receive(activity: Activity) {
        if (activity instanceof Follow) return listeners.follow(context, activity);
        if (activity instanceof Undo) return listeners.undo(context, activity);
        if (activity instanceof Like) return listeners.like(context, activity);
        if (activity instanceof Announce) return listeners.announce(context, activity);
        if (activity instanceof Create) return listeners.create(context, activity);
        if (activity instanceof Update) return listeners.update(context, activity);
        if (activity instanceof Delete) return listeners.delete(context, activity);
        throw new Error(`no listener for ${activity.constructor.name}`);
      },
    };
  }

  async function publish(overrides = {}): Promise<Post> {
    blog.clock.advance(60_000);
    return blog.services.posts.createPost(buildPostInput(overrides), TEST_WRITER);
  }

  it("accepts a Follow at once and sends the Accept to the follower", async () => {
    const { federation, receive } = inbox();
    await receive(followFrom(alice));

    const followers = await blog.services.fediverse.listFollowers();
    expect(followers.items).toEqual([
      expect.objectContaining({
        actorUrl: "https://social.example/users/alice",
        handle: "@alice@social.example",
        server: "social.example",
        state: "accepted",
      }),
    ]);
    expect(await blog.services.fediverse.followerInboxes({ cursor: null, limit: 10 })).toMatchObject({
      items: [{ inboxUrl: "https://social.example/users/alice/inbox", sharedInboxUrl: "https://social.example/inbox" }],
    });
    expect(federation.sentActivities).toHaveLength(1);
    const accept = federation.sentActivities[0]?.activity;
    expect(accept).toBeInstanceOf(Accept);
    expect(accept?.actorId?.href).toBe(BLOG_ACTOR);
    expect(accept?.objectId?.href).toBe("https://social.example/users/alice#follows/1");
    const answered = await (accept as Accept).getObject();
    expect(answered).toBeInstanceOf(Follow);
    expect((answered as Follow).actorId?.href).toBe("https://social.example/users/alice");
    expect((answered as Follow).objectId?.href).toBe(BLOG_ACTOR);
  });

  it("holds a Follow for the owner when follows are approved by hand, and sends nothing yet", async () => {
    await blog.services.fediverse.saveSettings({ ...DEFAULT_FEDIVERSE_SETTINGS, approveFollowsByHand: true }, OWNER);
    const { federation, receive } = inbox();
    await receive(followFrom(alice));
    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 1 });
    expect(federation.sentActivities).toEqual([]);
  });

  it("ignores a Follow of someone else, or whose actor document is another account", async () => {
    const { federation, receive } = inbox();
    await receive(
      new Follow({ id: new URL("https://social.example/f/2"), actor: alice, object: new URL(`${SITE}/x`) }),
    );
    await receive(
      new Follow({ id: new URL("https://social.example/f/3"), actor: alice.id, object: new URL(BLOG_ACTOR) }),
    );
    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 0 });
    expect(federation.sentActivities).toEqual([]);
  });

  it("removes the follower on Undo(Follow), by the Follow's id or the Follow itself", async () => {
    const { receive } = inbox();
    const bob = person("bob");
    await receive(followFrom(alice));
    await receive(followFrom(bob));

    await receive(
      new Undo({ id: new URL("https://social.example/u/1"), actor: alice.id, object: followFrom(alice).id }),
    );
    await receive(
      new Undo({
        id: new URL("https://social.example/u/2"),
        actor: bob.id,
        object: new Follow({
          id: new URL("https://social.example/unknown"),
          actor: bob.id,
          object: new URL(BLOG_ACTOR),
        }),
      }),
    );
    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 0 });
  });

  it("keeps a follower's handle and inboxes as their profile's Update says, and only their own", async () => {
    const { receive } = inbox();
    await receive(followFrom(alice));
    const moved = new Person({
      id: alice.id,
      preferredUsername: "alicia",
      inbox: new URL("https://social.example/people/alicia/inbox"),
      endpoints: null,
    });
    await receive(new Update({ id: new URL("https://social.example/up/2"), actor: person("bob").id, object: moved }));
    expect((await blog.services.fediverse.listFollowers()).items[0]?.handle).toBe("@alice@social.example");

    await receive(new Update({ id: new URL("https://social.example/up/3"), actor: alice.id, object: moved }));
    expect((await blog.services.fediverse.listFollowers()).items[0]?.handle).toBe("@alicia@social.example");
    expect(await blog.services.fediverse.followerInboxes({ cursor: null, limit: 10 })).toMatchObject({
      items: [{ inboxUrl: "https://social.example/people/alicia/inbox", sharedInboxUrl: null }],
    });
    // Someone who does not follow changes nothing.
    await receive(
      new Update({ id: new URL("https://social.example/up/4"), actor: person("carol").id, object: person("carol") }),
    );
    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 1, pending: 0 });
  });

  it("refuses blocked servers and actors, and drops a blocked follower", async () => {
    const { federation, receive } = inbox();
    const post = await publish();
    await receive(followFrom(alice));
    await blog.services.fediverse.saveSettings(
      { ...DEFAULT_FEDIVERSE_SETTINGS, blocked: "spam.example\nhttps://social.example/users/alice" },
      OWNER,
    );
    federation.reset();

    const spammer = person("x", "eu.spam.example");
    await receive(followFrom(spammer));
    await receive(followFrom(alice));
    await receive(
      new Like({
        id: new URL("https://eu.spam.example/l/1"),
        actor: spammer.id,
        object: new URL(`${SITE}/ap/posts/${post.id}`),
      }),
    );
    await receive(
      new Create({
        id: new URL("https://eu.spam.example/c/1"),
        actor: spammer,
        object: noteBy(spammer, `${SITE}/ap/posts/${post.id}`, "<p>Buy now</p>", "https://eu.spam.example/n/1"),
      }),
    );

    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 0 });
    expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 0, boosts: 0, replies: 0 });
    expect(federation.sentActivities).toEqual([]);
  });

  it("counts likes and boosts of public posts once per account, and Undo takes them back", async () => {
    const { receive } = inbox();
    const post = await publish();
    const draft = await publish({ published: false });
    const like = new Like({
      id: new URL("https://social.example/l/1"),
      actor: alice.id,
      object: new URL(`${SITE}/ap/posts/${post.id}`),
    });
    await receive(like);
    await receive(like);
    await receive(
      new Like({
        id: new URL("https://social.example/l/2"),
        actor: person("bob").id,
        object: new URL(`${SITE}/blog/${post.slug}`),
      }),
    );
    await receive(
      new Announce({
        id: new URL("https://social.example/a/1"),
        actor: alice.id,
        object: new URL(`${SITE}/ap/posts/${post.id}`),
      }),
    );
    await receive(
      new Like({
        id: new URL("https://social.example/l/3"),
        actor: alice.id,
        object: new URL(`${SITE}/ap/posts/${draft.id}`),
      }),
    );
    await receive(
      new Like({
        id: new URL("https://social.example/l/4"),
        actor: alice.id,
        object: new URL("https://elsewhere.example/ap/posts/x"),
      }),
    );
    expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 2, boosts: 1, replies: 0 });
    expect(await blog.services.fediverse.postCounts(draft.id)).toEqual({ likes: 0, boosts: 0, replies: 0 });

    // By the Like's id; by the Announce embedded with an id the blog never saw; not by someone else.
    await receive(new Undo({ id: new URL("https://social.example/u/9"), actor: person("bob").id, object: like.id }));
    await receive(new Undo({ id: new URL("https://social.example/u/1"), actor: alice.id, object: like.id }));
    await receive(
      new Undo({
        id: new URL("https://social.example/u/2"),
        actor: alice.id,
        object: new Announce({
          id: new URL("https://social.example/a/other"),
          actor: alice.id,
          object: new URL(`${SITE}/ap/posts/${post.id}`),
        }),
      }),
    );
    expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 1, boosts: 0, replies: 0 });
  });

  it("turns a reply into a held comment with the author's handle and profile, sanitised, and Delete removes it", async () => {
    const { receive } = inbox();
    const post = await publish();
    const html =
      `<p><span class="h-card"><a href="${BLOG_ACTOR}" class="u-url mention">@<span>blog</span></a></span> ` +
      `Lovely <script>alert(1)</script><strong>post</strong> &lt;3</p><p><img src="https://tracker.example/p.gif" onerror="x()">Thanks</p>`;
    await receive(
      new Create({
        id: new URL("https://social.example/c/1"),
        actor: alice,
        object: noteBy(alice, `${SITE}/ap/posts/${post.id}`, html),
      }),
    );

    const held = await blog.services.comments.listForModeration({ status: "pending" });
    expect(held.comments).toEqual([
      expect.objectContaining({
        postId: post.id,
        author: "Alice Example",
        content: "Lovely post <3\n\nThanks",
        heldReason: "Reply from the fediverse",
        createdAt: "2026-03-05T09:59:00.000Z",
        remoteAuthor: { handle: "@alice@social.example", url: "https://social.example/users/alice" },
      }),
    ]);
    expect((await blog.services.comments.listPublicComments(post.id)).total).toBe(0);
    expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 0, boosts: 0, replies: 1 });

    // An edit is held again with its new text.
    await receive(
      new Update({
        id: new URL("https://social.example/up/1"),
        actor: alice,
        object: noteBy(alice, `${SITE}/blog/${post.slug}`, "<p>Edited</p>"),
      }),
    );
    expect(
      (await blog.services.comments.listForModeration({ status: "pending" })).comments.map((c) => c.content),
    ).toEqual(["Edited"]);

    // Someone else's Delete of the note changes nothing; its author's removes the comment.
    const tombstone = new Tombstone({ id: new URL("https://social.example/notes/1") });
    await receive(
      new Delete({ id: new URL("https://social.example/d/0"), actor: person("bob").id, object: tombstone }),
    );
    expect(await blog.services.comments.countPending()).toBe(1);
    await receive(new Delete({ id: new URL("https://social.example/d/1"), actor: alice.id, object: tombstone }));
    expect(await blog.services.comments.countPending()).toBe(0);
  });

  it("threads a note that replies to a reply kept as a comment under that reply's comment", async () => {
    const { receive } = inbox();
    const post = await publish();
    const bob = person("bob");
    await receive(
      new Create({
        id: new URL("https://social.example/c/1"),
        actor: alice,
        object: noteBy(alice, `${SITE}/ap/posts/${post.id}`, "<p>A question</p>"),
      }),
    );
    await receive(
      new Create({
        id: new URL("https://social.example/c/2"),
        actor: bob,
        object: noteBy(bob, "https://social.example/notes/1", "<p>An answer</p>", "https://social.example/notes/2"),
      }),
    );
    // A reply to that reply joins the same thread.
    await receive(
      new Create({
        id: new URL("https://social.example/c/3"),
        actor: alice,
        object: noteBy(alice, "https://social.example/notes/2", "<p>Thanks</p>", "https://social.example/notes/3"),
      }),
    );
    const pending = (await blog.services.comments.listForModeration({ status: "pending" })).comments;
    const question = pending.find((comment) => comment.content === "A question")!;
    expect(pending.map((comment) => [comment.content, comment.parentId])).toEqual(
      expect.arrayContaining([
        ["A question", undefined],
        ["An answer", question.id],
        ["Thanks", question.id],
      ]),
    );
    expect(pending.find((comment) => comment.content === "An answer")!.parent).toMatchObject({
      author: "Alice Example",
    });
  });

  it("ignores notes that reply to something else, or that the sender did not write", async () => {
    const { receive } = inbox();
    const post = await publish();
    const bob = person("bob");
    await receive(
      new Create({
        id: new URL("https://social.example/c/1"),
        actor: alice,
        object: noteBy(alice, "https://social.example/notes/0", "<p>Hi</p>"),
      }),
    );
    await receive(
      new Create({
        id: new URL("https://social.example/c/2"),
        actor: bob,
        object: noteBy(alice, `${SITE}/ap/posts/${post.id}`, "<p>Forged</p>"),
      }),
    );
    expect(await blog.services.comments.countPending()).toBe(0);
  });

  it("forgets a deleted account whose own key is gone, and nothing else it cannot verify", async () => {
    const { receive } = inbox();
    await receive(followFrom(alice));
    await receive(followFrom(person("bob")));
    const gone = (keyId: string) => ({
      type: "keyFetchError" as const,
      keyId: new URL(keyId),
      result: { status: 410, response: new Response(null, { status: 410 }) },
    });
    const aliceId = alice.id!.href;
    const deletion = (actor: unknown, object: unknown = actor) => ({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: "https://social.example/d/9",
      type: "Delete",
      actor,
      object,
    });
    const forget = (json: object, reason: Parameters<typeof forgetGoneActor>[2]) =>
      forgetGoneActor(blog.services.fediverse, json, reason);

    // Another gone account's key on the same server cannot delete alice.
    expect(await forget(deletion(aliceId), gone("https://social.example/users/carol#main-key"))).toBeUndefined();
    expect(
      await forget(deletion(aliceId), { type: "invalidSignature", keyId: new URL(`${aliceId}#main-key`) }),
    ).toBeUndefined();
    expect(
      await forget(deletion(aliceId, "https://social.example/notes/1"), gone(`${aliceId}#main-key`)),
    ).toBeUndefined();
    expect(await forget({ ...deletion(aliceId), type: "Like" }, gone(`${aliceId}#main-key`))).toBeUndefined();
    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 2, pending: 0 });

    const answer = await forget(deletion({ id: aliceId, type: "Person" }, aliceId), gone(`${aliceId}#main-key`));
    expect(answer?.status).toBe(202);
    expect((await blog.services.fediverse.listFollowers()).items.map((item) => item.handle)).toEqual([
      "@bob@social.example",
    ]);
  });

  it("is registered on the federation for each activity type", async () => {
    const federation = createFederation<null>({ contextData: null, origin: SITE });
    registerInbox(federation, { fediverse: blog.services.fediverse, identifier: "blog" });
    const post = await publish();
    await federation.receiveActivity(
      new Like({
        id: new URL("https://social.example/l/1"),
        actor: alice.id,
        object: new URL(`${SITE}/ap/posts/${post.id}`),
      }),
    );
    await federation.receiveActivity(
      new Create({
        id: new URL("https://social.example/c/1"),
        actor: alice,
        object: noteBy(alice, `${SITE}/ap/posts/${post.id}`, "<p>Hi</p>"),
      }),
    );
    expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 1, boosts: 0, replies: 1 });
  });
});
