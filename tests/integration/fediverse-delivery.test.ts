import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "#domain/errors.ts";
import { DEFAULT_IMPORT_OPTIONS } from "#domain/portability.ts";
import { createBlogFederation } from "../../server/fediverse/federation.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { type FederatedBlog, useFederatedBlog } from "../support/federated-blog.ts";
import { type FediversePeer, startFediversePeer } from "../support/fediverse-peer.ts";

/** The activities waiting in the queue, one entry per activity (a fan-out or a delivery names it). */
async function queuedActivities(blog: FederatedBlog): Promise<{ type: string; id: string; objectId: string }[]> {
  const rows = await blog.handle.db.selectFrom("fedify_messages").select("payload").orderBy("id").execute();
  const seen = new Map<string, { type: string; id: string; objectId: string }>();
  for (const row of rows) {
    const message = JSON.parse(row.payload) as {
      activity: { id: string; type: string; object: string | { id: string } };
    };
    const { activity } = message;
    const objectId = typeof activity.object === "string" ? activity.object : activity.object.id;
    seen.set(activity.id, { type: activity.type, id: activity.id, objectId });
  }
  return [...seen.values()];
}

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");

async function exportOf(blog: FederatedBlog): Promise<string> {
  let text = "";
  for await (const chunk of blog.services.portability.exportBlog()) text += chunk;
  return text;
}

async function addFollower(blog: FederatedBlog, name = "alice") {
  await blog.services.fediverse.followFrom({
    actorUrl: `https://social.example/users/${name}`,
    handle: `@${name}@social.example`,
    inboxUrl: `https://social.example/users/${name}/inbox`,
    sharedInboxUrl: "https://social.example/inbox",
    followActivityId: `https://social.example/follows/${name}`,
  });
}

describe.each(testDialects())("activity ids at a follower's server on $dialect", (target) => {
  const blog = useFederatedBlog(target);
  let peer: FediversePeer | undefined;
  afterEach(async () => {
    await blog.fediverse?.stop();
    await peer?.close();
  });

  it("gives a post republished after its Delete a Create of its own, and lists that one in the outbox", async () => {
    peer = await startFediversePeer();
    const reader = peer.actor("reader");
    await blog.services.fediverse.followFrom({
      actorUrl: reader.id.href,
      handle: reader.handle,
      inboxUrl: reader.inbox.href,
      sharedInboxUrl: reader.sharedInbox?.href ?? null,
      followActivityId: `${reader.id.href}#follows/1`,
    });
    await blog.fediverse.start();
    const object = (id: string) => `${blog.siteUrl}/ap/posts/${id}`;
    const creates = () => peer!.received.filter((activity) => activity.type === "Create");

    const post = await blog.services.posts.createPost(buildPostInput({ title: "Back again" }), TEST_WRITER);
    await blog.fediverse.nudge();
    await peer.waitFor(() => creates().length === 1, 15_000, "the first Create");
    blog.clock.advance(60_000);
    await blog.services.posts.updatePost(post.id, buildPostInput({ published: false }), TEST_WRITER);
    await blog.fediverse.nudge();
    await peer.waitFor(() => peer!.received.some((activity) => activity.type === "Delete"), 15_000, "the Delete");
    blog.clock.advance(60_000);
    await blog.services.posts.updatePost(post.id, buildPostInput({ title: "Back again" }), TEST_WRITER);
    await blog.fediverse.nudge();
    await peer.waitFor(() => creates().length === 2, 15_000, "the second Create");

    const [first, second] = creates();
    expect(first?.objectId).toBe(object(post.id));
    expect(second?.objectId).toBe(object(post.id));
    expect(second?.activityId).not.toBe(first?.activityId);
    const ids = peer.received.map((activity) => activity.activityId);
    expect(new Set(ids).size).toBe(ids.length);

    const outbox = (await (await blog.get("/ap/users/blog/outbox?cursor=1")).json()) as {
      orderedItems: { id: string; type: string }[];
    };
    expect(outbox.orderedItems).toEqual([expect.objectContaining({ type: "Create", id: second?.activityId })]);
  });
});

describe.each(testDialects())("delivery to followers on $dialect", (target) => {
  const blog = useFederatedBlog(target);
  const objectOf = (postId: string) => `${blog.siteUrl}/ap/posts/${postId}`;

  it("sends Create when a post is published, once however often it sweeps", async () => {
    await addFollower(blog);
    const draft = await blog.services.posts.createPost(buildPostInput({ published: false }), TEST_WRITER);
    await blog.fediverse.sweep();
    expect(await queuedActivities(blog)).toEqual([]);

    await blog.services.posts.updatePost(draft.id, buildPostInput({ title: "Now public" }), TEST_WRITER);
    expect(await blog.fediverse.sweep()).toMatchObject({ created: 1 });
    await blog.fediverse.sweep();
    // Named by the version it sends: the post's last save.
    const version = Date.parse(blog.clock.now().toISOString());
    expect(await queuedActivities(blog)).toEqual([
      { type: "Create", id: `${objectOf(draft.id)}#create/${version}`, objectId: objectOf(draft.id) },
    ]);
  });

  it("sends Update after an edit, and Delete with a Tombstone when unpublished or deleted", async () => {
    await addFollower(blog);
    const [first, second] = [
      await blog.services.posts.createPost(buildPostInput({ title: "First" }), TEST_WRITER),
      await blog.services.posts.createPost(buildPostInput({ title: "Second" }), TEST_WRITER),
    ];
    await blog.fediverse.sweep();
    blog.clock.advance(60_000);
    await blog.services.posts.updatePost(first!.id, buildPostInput({ title: "First, edited" }), TEST_WRITER);
    expect(await blog.fediverse.sweep()).toMatchObject({ created: 0, updated: 1, deleted: 0 });

    await blog.services.posts.updatePost(first!.id, buildPostInput({ published: false }), TEST_WRITER);
    await blog.services.posts.deletePost(second!.id, TEST_WRITER);
    expect(await blog.fediverse.sweep()).toMatchObject({ created: 0, updated: 0, deleted: 2 });
    expect(await blog.fediverse.sweep()).toEqual({ created: 0, updated: 0, deleted: 0, skipped: 0 });

    const types = (await queuedActivities(blog)).map(({ type, objectId }) => `${type} ${objectId}`);
    expect(types.sort()).toEqual(
      [
        `Create ${objectOf(first!.id)}`,
        `Create ${objectOf(second!.id)}`,
        `Update ${objectOf(first!.id)}`,
        `Delete ${objectOf(first!.id)}`,
        `Delete ${objectOf(second!.id)}`,
      ].sort(),
    );
    const rows = await blog.handle.db.selectFrom("fedify_messages").select("payload").execute();
    const deletion = rows
      .map((row) => JSON.parse(row.payload) as { activity: { type: string; object: { type: string } } })
      .find((message) => message.activity.type === "Delete");
    expect(deletion?.activity.object.type).toBe("Tombstone");
  });

  it("sends a scheduled post's Create when its time comes, with no request to trigger it", async () => {
    await addFollower(blog);
    const scheduled = await blog.services.posts.createPost(
      buildPostInput({ publishAt: "2026-03-05T12:00", publishAtOffset: "" }),
      TEST_WRITER,
    );
    await blog.fediverse.sweep();
    expect(await queuedActivities(blog)).toEqual([]);
    blog.clock.advance(3 * 60 * 60 * 1000);
    await blog.fediverse.sweep();
    expect(await queuedActivities(blog)).toMatchObject([{ type: "Create", objectId: objectOf(scheduled.id) }]);
  });

  it("records without sending a post that was public long before the blog first saw it", async () => {
    await addFollower(blog);
    // Backdated, as an import keeps its dates: public two days before it was saved.
    await blog.services.posts.createPost(
      buildPostInput({ publishAt: "2026-03-03T10:00", publishAtOffset: "" }),
      TEST_WRITER,
    );
    expect(await blog.fediverse.sweep()).toMatchObject({ created: 0, skipped: 1 });
    expect(await queuedActivities(blog)).toEqual([]);
    expect(await blog.fediverse.sweep()).toEqual({ created: 0, updated: 0, deleted: 0, skipped: 0 });
  });

  it("sends each change once when several servers sweep at the same moment", async () => {
    await addFollower(blog);
    const post = await blog.services.posts.createPost(buildPostInput(), TEST_WRITER);
    const servers = await Promise.all(
      [1, 2, 3].map(() =>
        createBlogFederation({
          db: blog.handle.db,
          dialect: target.dialect,
          siteUrl: blog.siteUrl,
          services: blog.services,
          now: blog.clock.now,
        }),
      ),
    );
    const reports = await Promise.all([blog.fediverse, ...servers].map((server) => server.sweep()));
    expect(reports.reduce((sum, report) => sum + report.created, 0)).toBe(1);
    expect(await queuedActivities(blog)).toMatchObject([{ type: "Create", objectId: objectOf(post.id) }]);
  });

  it("queues nothing for a reader's request: publishing only writes the post", async () => {
    await addFollower(blog);
    await blog.services.posts.createPost(buildPostInput(), TEST_WRITER);
    expect(await queuedActivities(blog)).toEqual([]);
  });
  it("records an import's public posts without sending, so editing one sends no Create", async () => {
    await addFollower(blog);
    const report = await blog.services.portability.importBlog(fixture("wordpress-export.xml"), DEFAULT_IMPORT_OPTIONS);
    expect(report.created.posts).toBeGreaterThan(1);
    const imported = await blog.handle.db
      .selectFrom("posts")
      .select("id")
      .where("published", "=", 1)
      .orderBy("id")
      .execute();
    expect(imported.length).toBeGreaterThan(0);
    await blog.fediverse.sweep();
    blog.clock.advance(60_000);
    for (const { id } of imported) {
      await blog.services.posts.updatePost(id, buildPostInput({ title: `Edited ${id}` }), TEST_WRITER);
    }
    await blog.fediverse.sweep();
    const sent = await queuedActivities(blog);
    expect(sent.filter((activity) => activity.type === "Create")).toEqual([]);
  });

  it("neither retracts nor announces again a deleted post that an import of its export restores", async () => {
    await addFollower(blog);
    const post = await blog.services.posts.createPost(buildPostInput({ title: "Restored" }), TEST_WRITER);
    await blog.fediverse.sweep();
    const exported = await exportOf(blog);
    blog.clock.advance(60_000);
    await blog.services.posts.deletePost(post.id, TEST_WRITER);
    const report = await blog.services.portability.importBlog(exported, DEFAULT_IMPORT_OPTIONS);
    expect(report.created.posts).toBe(1);
    expect(await blog.fediverse.sweep()).toMatchObject({ created: 0, deleted: 0 });

    blog.clock.advance(60_000);
    await blog.services.posts.updatePost(post.id, buildPostInput({ title: "Restored, edited" }), TEST_WRITER);
    expect(await blog.fediverse.sweep()).toMatchObject({ created: 0, updated: 1, deleted: 0 });
    expect((await queuedActivities(blog)).map(({ type, objectId }) => `${type} ${objectId}`)).toEqual([
      `Create ${objectOf(post.id)}`,
      `Update ${objectOf(post.id)}`,
    ]);
  });

  it("sends the Delete of a deleted post that an import restores only as a draft", async () => {
    await addFollower(blog);
    const post = await blog.services.posts.createPost(buildPostInput({ title: "Back as a draft" }), TEST_WRITER);
    await blog.fediverse.sweep();
    const exported = JSON.parse(await exportOf(blog)) as { posts: Record<string, unknown>[] };
    for (const row of exported.posts) row.published = 0;
    blog.clock.advance(60_000);
    await blog.services.posts.deletePost(post.id, TEST_WRITER);
    await blog.services.portability.importBlog(JSON.stringify(exported), DEFAULT_IMPORT_OPTIONS);
    expect(await blog.fediverse.sweep()).toMatchObject({ created: 0, deleted: 1 });
  });
  it("stops the sweep when the database fails while it reads a post, and sends the post later", async () => {
    await addFollower(blog);
    const post = await blog.services.posts.createPost(buildPostInput(), TEST_WRITER);
    const outage = await createBlogFederation({
      db: blog.handle.db,
      dialect: target.dialect,
      siteUrl: blog.siteUrl,
      services: {
        ...blog.services,
        posts: { ...blog.services.posts, findPublicPost: () => Promise.reject(new DatabaseUnavailableError()) },
      },
      now: blog.clock.now,
    });
    await expect(outage.sweep()).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(await queuedActivities(blog)).toEqual([]);
    expect(await blog.fediverse.sweep()).toMatchObject({ created: 1 });
    expect(await queuedActivities(blog)).toMatchObject([{ type: "Create", objectId: objectOf(post.id) }]);
  });
});
