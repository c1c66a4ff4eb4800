import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_FEDIVERSE_SETTINGS } from "#domain/fediverse.ts";
import { type BlogFederation, createBlogFederation } from "../../server/fediverse/federation.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { useFederatedBlog } from "../support/federated-blog.ts";
import { type FediversePeer, startFediversePeer } from "../support/fediverse-peer.ts";
import { useTestBlog } from "../support/test-blog.ts";

const OWNER = { label: "owner" };

function follow(inboxUrl: string, sharedInboxUrl: string | null = null) {
  return {
    actorUrl: "https://social.example/users/ada",
    handle: "@ada@social.example",
    inboxUrl,
    sharedInboxUrl,
    followActivityId: "https://social.example/follows/ada",
  };
}

describe.each(testDialects())("follower addresses as they are stored on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it.each([
    "http://127.0.0.1:8080/users/ada/inbox",
    "http://[::1]/inbox",
    "http://169.254.169.254/latest/meta-data/",
    "https://10.0.0.5/inbox",
    "http://[::ffff:7f00:1]/inbox",
    "http://localhost/inbox",
    "ftp://social.example/inbox",
    "https://user:secret@social.example/inbox",
  ])("refuse a follow whose inbox is %s: nothing stored, nothing to answer", async (inboxUrl) => {
    expect(await blog.services.fediverse.followFrom(follow(inboxUrl))).toBeUndefined();
    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 0 });
  });

  it("keep a follow with a public inbox and leave out a shared inbox that is not public", async () => {
    const followed = await blog.services.fediverse.followFrom(
      follow("https://social.example/users/ada/inbox", "http://192.168.1.1/inbox"),
    );
    expect(followed).toMatchObject({ state: "accepted" });
    expect(await blog.services.fediverse.findFollower(followed!.id)).toMatchObject({
      inboxUrl: "https://social.example/users/ada/inbox",
      sharedInboxUrl: null,
    });
  });

  it("refuse a profile update that moves the inbox to a private address, and keep the inbox known", async () => {
    const followed = await blog.services.fediverse.followFrom(
      follow("https://social.example/users/ada/inbox", "https://social.example/inbox"),
    );
    const profile = { actorUrl: "https://social.example/users/ada", handle: "@ada@social.example" };
    expect(
      await blog.services.fediverse.refreshFollower({
        ...profile,
        inboxUrl: "http://127.0.0.1:9000/inbox",
        sharedInboxUrl: null,
      }),
    ).toBe(false);
    expect(
      await blog.services.fediverse.refreshFollower({
        ...profile,
        handle: "@ada.new@social.example",
        inboxUrl: "https://social.example/users/ada/inbox2",
        sharedInboxUrl: "http://[fd00::1]/inbox",
      }),
    ).toBe(true);
    expect(await blog.services.fediverse.findFollower(followed!.id)).toMatchObject({
      handle: "@ada.new@social.example",
      inboxUrl: "https://social.example/users/ada/inbox2",
      sharedInboxUrl: null,
    });
  });
});

describe.each(testDialects())("deliveries to private addresses on $dialect", (target) => {
  const blog = useFederatedBlog(target);
  let peer: FediversePeer;
  let strict: BlogFederation | undefined;
  const refused: unknown[] = [];

  beforeEach(async (context) => {
    if (target.skip) context.skip();
    peer = await startFediversePeer();
    refused.length = 0;
    // As a deployed blog runs: FEDIVERSE_ALLOW_PRIVATE_ADDRESS unset. Its rows were written by a
    // blog that allowed them (the peer lives on 127.0.0.1), as rows stored before the check were.
    strict = await createBlogFederation({
      db: blog.handle.db,
      dialect: target.dialect,
      siteUrl: blog.siteUrl,
      services: blog.services,
      now: blog.clock.now,
      queueTuning: { pollIntervalMs: 20 },
      onDeliveryError: (error) => refused.push(error),
    });
  });
  afterEach(async () => {
    await strict?.stop();
    await peer?.close();
  });

  async function queued(): Promise<number> {
    const rows = await blog.handle.db.selectFrom("fedify_messages").select("id").execute();
    return rows.length;
  }

  it("sends nothing to a follower whose inboxes are on 127.0.0.1, and says so", async () => {
    const alice = peer.actor("alice");
    await blog.services.fediverse.followFrom({
      actorUrl: alice.id.href,
      handle: alice.handle,
      inboxUrl: alice.inbox.href,
      sharedInboxUrl: alice.sharedInbox?.href ?? null,
      followActivityId: `${alice.id.href}#follows/1`,
    });
    await blog.services.posts.createPost(buildPostInput({ title: "Not for 127.0.0.1" }), TEST_WRITER);
    expect(await strict!.sweep()).toMatchObject({ created: 1 });
    await strict!.start();
    await vi.waitFor(
      async () => {
        expect(await queued()).toBe(0);
        expect(refused).toHaveLength(1);
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(peer.arrivals).toEqual([]);
    expect(String(refused[0])).toContain(`${alice.server}/inbox`);
    expect(String(refused[0])).toContain("not a public address");
  });

  it("sends no Accept to a pending follower whose inbox is on 127.0.0.1", async () => {
    const bob = peer.actor("bob");
    await blog.services.fediverse.saveSettings({ ...DEFAULT_FEDIVERSE_SETTINGS, approveFollowsByHand: true }, OWNER);
    const pending = await blog.services.fediverse.followFrom({
      actorUrl: bob.id.href,
      handle: bob.handle,
      inboxUrl: bob.inbox.href,
      sharedInboxUrl: null,
      followActivityId: `${bob.id.href}#follows/1`,
    });
    await strict!.start();
    await strict!.requestHandle.acceptFollower(pending!.id);
    await vi.waitFor(
      async () => {
        expect(await queued()).toBe(0);
        expect(refused).toHaveLength(1);
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(peer.arrivals).toEqual([]);
    expect(String(refused[0])).toContain(bob.inbox.href);
  });
});
