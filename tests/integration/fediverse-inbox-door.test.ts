import {
  type Activity,
  type Actor,
  Announce,
  Create,
  Delete,
  Endpoints,
  Follow,
  Like,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Undo,
  Update,
} from "@fedify/vocab";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { testDialects } from "../support/databases.ts";
import { buildPostInput } from "../support/factories.ts";
import { type FediversePeer, type PeerActor, startFediversePeer } from "../support/fediverse-peer.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";

// Issue 32, items 1, 3 and 4: what an inbox POST must prove before the blog reads it. The peer
// (tests/support/fediverse-peer.ts) runs several servers on 127.0.0.1; the blog runs as server.ts
// wires it, with its worker, in this process.

const eventually = { timeout: 20_000, interval: 25 };
const SLOW = { timeout: 60_000 };

const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";

describe.each(testDialects())("the inbox's door on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;
  let peer: FediversePeer;

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect);
    // Server 0 is the victim's, server 1 the impersonator's.
    peer = await startFediversePeer({ servers: 2 });
  });
  afterEach(async () => {
    await peer?.close();
    await blog?.close();
  });

  async function followedBy(alice: PeerActor): Promise<Actor> {
    const blogActor = await peer.lookup(`@blog@${new URL(blog.siteUrl).host}`);
    await peer.follow(alice, blogActor);
    await vi.waitFor(
      async () => expect(await blog.services.fediverse.countFollowers()).toMatchObject({ accepted: 1 }),
      eventually,
    );
    return blogActor;
  }

  test(
    "refuses with 401 every activity signed by a key another server hosts in the account's name, and changes nothing",
    SLOW,
    async () => {
      const alice = peer.actor("alice", 0);
      const blogActor = await followedBy(alice);
      const follow = (await blog.services.fediverse.findFollowerByActor(alice.id.href))!;
      const post = await blog.services.posts.createPost(buildPostInput());
      const objectId = new URL(`${blog.siteUrl}/ap/posts/${post.id}`);
      const id = (kind: string) => new URL(`${alice.id.href}#${kind}/forged`);
      const note = new Note({
        id: new URL(`/notes/forged`, alice.server),
        attribution: alice.id,
        content: "<p>Words put in alice's mouth</p>",
        replyTarget: objectId,
        to: PUBLIC_COLLECTION,
      });
      const attacker = peer.actor("alice", 1);
      const forged: Activity[] = [
        new Like({ id: id("like"), actor: alice.id, object: objectId }),
        new Announce({ id: id("announce"), actor: alice.id, object: objectId, to: PUBLIC_COLLECTION }),
        new Create({ id: id("create"), actor: alice.id, object: note, to: PUBLIC_COLLECTION }),
        new Delete({ id: id("delete"), actor: alice.id, object: alice.id }),
        new Undo({
          id: id("undo"),
          actor: alice.id,
          object: new Follow({ id: new URL(follow.followActivityId!), actor: alice.id, object: blogActor.id }),
        }),
        new Update({
          id: id("update"),
          actor: alice.id,
          object: new Person({
            id: alice.id,
            preferredUsername: "alice",
            inbox: attacker.inbox,
            endpoints: new Endpoints({ sharedInbox: attacker.sharedInbox }),
          }),
        }),
      ];
      for (const inbox of [blogActor.inboxId!, blogActor.endpoints!.sharedInbox!]) {
        for (const activity of forged) {
          const response = await peer.impersonate(alice, inbox, activity, 1);
          expect(response.status, `${activity.constructor.name} to ${inbox.href}`).toBe(401);
          expect(await response.text()).toBe("The signer and the actor do not match.");
        }
      }
      // Give the worker time to act on anything that slipped through.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await blog.services.fediverse.followerInboxes({ cursor: null, limit: 10 })).toMatchObject({
        items: [{ actorUrl: alice.id.href, inboxUrl: alice.inbox.href, sharedInboxUrl: alice.sharedInbox?.href }],
      });
      expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 0, boosts: 0, replies: 0 });
      expect(await blog.services.comments.countPending()).toBe(0);

      // The same Like signed with alice's own key is taken: the refusals were the key's.
      expect((await peer.forge(alice, blogActor.inboxId!, forged[0]!, alice)).status).toBe(202);
      await vi.waitFor(
        async () => expect(await blog.services.fediverse.postCounts(post.id)).toMatchObject({ likes: 1 }),
        eventually,
      );
    },
  );

  test("answers an unsigned activity 401 without fetching its contexts or its proof's key", SLOW, async () => {
    const alice = peer.actor("alice", 0);
    const inbox = `${blog.siteUrl}/ap/inbox`;
    const post = await blog.services.posts.createPost(buildPostInput());
    const elsewhere = peer.servers[1]!;
    const activity = {
      "@context": [AS_CONTEXT, "https://w3id.org/security/data-integrity/v1", `${elsewhere}/contexts/extra`],
      id: `${alice.id.href}#likes/unsigned`,
      type: "Like",
      actor: alice.id.href,
      object: `${blog.siteUrl}/ap/posts/${post.id}`,
      proof: {
        type: "DataIntegrityProof",
        cryptosuite: "eddsa-jcs-2022",
        verificationMethod: `${elsewhere}/users/alice#ed25519-key`,
        proofPurpose: "assertionMethod",
        proofValue: "z3sXaxjKs4M3BRicwWA9peyNPJvJqxtGsDmpt1jjoHCjgeUf71TRFz56osPSfDErszyLp5Ks1EhYSgpDaNM977Rg2",
        created: "2026-03-05T10:00:00Z",
      },
      signature: {
        type: "RsaSignature2017",
        creator: `${elsewhere}/users/alice#main-key`,
        created: "2026-03-05T10:00:00Z",
        signatureValue: "c2lnbmF0dXJl",
      },
    };
    peer.gets.length = 0;
    const response = await fetch(inbox, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: JSON.stringify(activity),
    });
    expect(response.status).toBe(401);
    expect(peer.gets).toEqual([]);
    expect(await blog.services.fediverse.postCounts(post.id)).toEqual({ likes: 0, boosts: 0, replies: 0 });
  });

  test("refuses deep nesting and what is not JSON with 400 before anything else", SLOW, async () => {
    const inbox = `${blog.siteUrl}/ap/users/blog/inbox`;
    const deep = `{"@context":"${AS_CONTEXT}","type":"Like","object":${"[".repeat(2_000)}${"]".repeat(2_000)}}`;
    for (const [body, message] of [
      [deep, /nest at most 64 levels/],
      ["{not json", /not valid JSON/],
      ["[1,2,3]", /JSON object/],
    ] as const) {
      const response = await fetch(inbox, {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body,
      });
      expect(response.status, body.slice(0, 40)).toBe(400);
      expect(await response.text()).toMatch(message);
    }
  });

  test("answers a signed activity whose context cannot be fetched with 400, not a failure", SLOW, async () => {
    const alice = peer.actor("alice", 0);
    const response = await peer.sendJson(alice, new URL(`${blog.siteUrl}/ap/inbox`), {
      "@context": [AS_CONTEXT, "http://127.0.0.1:9/no-such-context"],
      id: `${alice.id.href}#likes/unreachable`,
      type: "Like",
      actor: alice.id.href,
      object: `${blog.siteUrl}/ap/posts/abcdefghijklmnop`,
    });
    expect(response.status).toBe(400);
  });
});

describe.each(testDialects())("the inbox's budgets on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;
  let peer: FediversePeer;
  const minute = 60_000;

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect, {
      inboxRateLimits: {
        address: { maxHits: 20, windowMs: minute },
        server: { maxHits: 3, windowMs: minute },
      },
    });
    peer = await startFediversePeer();
  });
  afterEach(async () => {
    await peer?.close();
    await blog?.close();
  });

  test("limits one address however many servers its signatures name", SLOW, async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 21; index += 1) {
      const keyId = `http://127.0.0.${index + 2}:9/users/someone#main-key`;
      const response = await fetch(`${blog.siteUrl}/ap/inbox`, {
        method: "POST",
        headers: {
          "content-type": "application/activity+json",
          date: new Date().toUTCString(),
          signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) date",signature="eA=="`,
        },
        body: JSON.stringify({ "@context": AS_CONTEXT, type: "Like", actor: keyId, object: blog.siteUrl }),
      });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
  });

  test("counts a server's budget only for what it signed: forgeries in its name do not lock it out", SLOW, async () => {
    const alice = peer.actor("alice");
    const blogActor = await peer.lookup(`@blog@${new URL(blog.siteUrl).host}`);
    const post = await blog.services.posts.createPost(buildPostInput());
    const like = (n: number) =>
      new Like({
        id: new URL(`${alice.id.href}#likes/${n}`),
        actor: alice.id,
        object: new URL(`${blog.siteUrl}/ap/posts/${post.id}`),
      });
    for (let n = 0; n < 8; n += 1) expect((await peer.forge(alice, blogActor.inboxId!, like(n))).status).toBe(401);
    const own = [];
    for (let n = 10; n < 14; n += 1) own.push((await peer.forge(alice, blogActor.inboxId!, like(n), alice)).status);
    expect(own).toEqual([202, 202, 202, 429]);
  });
});
