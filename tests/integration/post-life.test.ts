import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, type Dialect } from "../../server/kernel/db/connect.ts";
import type { PeriodicWorker } from "../../server/kernel/workers.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, createManualClock, TEST_PASSWORD_COST, TEST_WRITER } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";

const HOUR = 3_600_000;

// A post's life (server/posts/service.ts, PostLife): the fediverse's sweep is nudged when a post
// becomes public, changes while public or stops being public, and scheduled posts come in by the
// same door when their time comes, emailed once however many servers see it.
describe.each(testDialects())("a post's life on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let clock: ReturnType<typeof createManualClock>;
  const doors: PeriodicWorker[] = [];
  const errors: unknown[] = [];

  /** One app server's services, with the fediverse's nudges counted. */
  function startServer() {
    const services = createServices({
      db: handle.db,
      dialect: dialect as Dialect,
      now: clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      siteUrl: "https://blog.example",
      emailOn: true,
    });
    const sweeps = { count: 0 };
    services.fediverseSweep.attach({
      name: "counted sweeps",
      start: async () => {},
      stop: async () => {},
      nudge: () => void (sweeps.count += 1),
    });
    return { services, sweeps };
  }

  function clockDoor(services: Services): PeriodicWorker {
    const door = services.posts.scheduledPosts((error) => errors.push(error));
    doors.push(door);
    return door;
  }

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    clock = createManualClock();
    errors.length = 0;
  });
  afterEach(async () => {
    await Promise.all(doors.splice(0).map((door) => door.stop()));
    await handle?.close();
    expect(errors).toEqual([]);
  });

  it("nudges the fediverse when a post becomes public, changes while public or stops being public, not for a draft", async () => {
    const { services, sweeps } = startServer();
    const draft = await services.posts.createPost(buildPostInput({ published: false }), TEST_WRITER);
    await services.posts.updatePost(
      draft.id,
      buildPostInput({ published: false, title: "Still a draft" }),
      TEST_WRITER,
    );
    expect(sweeps.count).toBe(0);

    await services.posts.updatePost(draft.id, buildPostInput({ title: "Out now" }), TEST_WRITER);
    expect(sweeps.count).toBe(1);
    await services.posts.updatePost(draft.id, buildPostInput({ title: "Out now, mended" }), TEST_WRITER);
    expect(sweeps.count).toBe(2);
    const [first] = (await services.posts.listRevisions(draft.id)).toReversed();
    await services.posts.restoreRevision(draft.id, first!.id, TEST_WRITER);
    expect(sweeps.count).toBe(3);
    await services.posts.updatePost(draft.id, buildPostInput({ published: false }), TEST_WRITER);
    expect(sweeps.count).toBe(4);
    await services.posts.deletePost(draft.id, TEST_WRITER);
    expect(sweeps.count).toBe(4);

    const published = await services.posts.createPost(buildPostInput(), TEST_WRITER);
    expect(sweeps.count).toBe(5);
    await services.posts.deletePost(published.id, TEST_WRITER);
    expect(sweeps.count).toBe(6);
  });

  it("brings a scheduled post in by the clock's door once its time comes: swept on every server, emailed once", async () => {
    await handle.db
      .insertInto("subscribers")
      .values({
        id: "sub-1",
        email: "reader@example.com",
        state: "active",
        source: "admin",
        created_at: clock.now().toISOString(),
        confirmed_at: clock.now().toISOString(),
        unsubscribed_at: null,
      })
      .execute();
    const one = startServer();
    const two = startServer();
    const publishAt = new Date(clock.now().getTime() + HOUR).toISOString().slice(0, 16);
    const post = await one.services.posts.createPost(
      buildPostInput({ publishAt, publishAtOffset: "0", emailSubscribers: true }),
      TEST_WRITER,
    );
    expect(post.newsletter).toBe("wanted");
    expect(one.sweeps.count).toBe(0);

    const doorOne = clockDoor(one.services);
    const doorTwo = clockDoor(two.services);
    await doorOne.start();
    await doorTwo.start();
    // The first look catches up on whatever came due while no server looked: nothing yet.
    await Promise.all([doorOne.nudge(), doorTwo.nudge()]);
    const sendsBefore = await handle.db.selectFrom("email_sends").selectAll().execute();
    expect(sendsBefore).toHaveLength(0);
    const sweptAtStart = [one.sweeps.count, two.sweeps.count];

    // Its time comes; looking again before then changes nothing.
    clock.advance(HOUR - 60_000);
    await Promise.all([doorOne.nudge(), doorTwo.nudge()]);
    expect([one.sweeps.count, two.sweeps.count]).toEqual(sweptAtStart);
    clock.advance(2 * 60_000);
    await Promise.all([doorOne.nudge(), doorTwo.nudge()]);
    expect([one.sweeps.count, two.sweeps.count]).toEqual(sweptAtStart.map((count) => count + 1));
    const sends = await handle.db.selectFrom("email_sends").select(["post_id"]).execute();
    expect(sends).toEqual([{ post_id: post.id }]);
    expect((await one.services.posts.getPostForEditing(post.id)).newsletter).toBe("sent");

    // Later looks find nothing new.
    clock.advance(HOUR);
    await Promise.all([doorOne.nudge(), doorTwo.nudge()]);
    expect([one.sweeps.count, two.sweeps.count]).toEqual(sweptAtStart.map((count) => count + 1));
    expect(await handle.db.selectFrom("email_sends").select(["post_id"]).execute()).toHaveLength(1);

    // A post public and wanted with no arrival, as an import leaves one whose time has passed:
    // emailed at the next look, with no sweep, for nothing was scheduled to arrive.
    const imported = await one.services.posts.createPost(buildPostInput({ title: "Imported" }), TEST_WRITER);
    await handle.db.updateTable("posts").set({ newsletter: "wanted" }).where("id", "=", imported.id).execute();
    const sweptBefore = [one.sweeps.count, two.sweeps.count];
    await Promise.all([doorOne.nudge(), doorTwo.nudge()]);
    expect([one.sweeps.count, two.sweeps.count]).toEqual(sweptBefore);
    expect(
      await handle.db.selectFrom("email_sends").select(["post_id"]).where("post_id", "=", imported.id).execute(),
    ).toHaveLength(1);
  });
});
