import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PostInput } from "#domain/post.ts";
import type { DatabaseHandle, Dialect } from "../../server/kernel/db/connect.ts";
import type { Database } from "../../server/kernel/db/schema.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, createManualClock, TEST_PASSWORD_COST, TEST_WRITER } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";

const REFUSAL = "refused by the test";

/** Makes every insert into `table` fail, as a database that drops mid-save would fail it. */
async function refuseInsertsInto(db: Kysely<Database>, dialect: Dialect, table: "audit_log" | "email_sends") {
  if (dialect === "sqlite") {
    await sql`create trigger refuse_insert before insert on ${sql.table(table)}
      begin select raise(abort, ${sql.lit(REFUSAL)}); end`.execute(db);
    return;
  }
  await sql`create function refuse_insert() returns trigger language plpgsql as $$
    begin raise exception ${sql.lit(REFUSAL)}; end $$`.execute(db);
  await sql`create trigger refuse_insert before insert on ${sql.table(table)}
    for each row execute function refuse_insert()`.execute(db);
}

// A save, its audit entry and its email are one transaction: all three are written, or none.
describe.each(testDialects())("saving a post on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let services: Services;

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    services = createServices({
      db: handle.db,
      dialect,
      now: createManualClock().now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      emailOn: true,
    });
    await handle.db
      .insertInto("subscribers")
      .values({
        id: "reader",
        email: "reader@example.com",
        state: "active",
        source: "admin",
        created_at: "2026-03-01T00:00:00.000Z",
        confirmed_at: "2026-03-01T00:00:00.000Z",
        unsubscribed_at: null,
      })
      .execute();
  });
  afterEach(async () => {
    await handle?.close();
  });

  const publishing = (overrides: Partial<PostInput> = {}) =>
    buildPostInput({ title: "A heron at dawn", emailSubscribers: true, ...overrides });
  const titles = async () => (await services.posts.listAllPosts()).items.map((post) => post.title);
  const auditActions = async () => (await services.audit.listPage()).entries.map((entry) => entry.action);
  const sendCount = async () =>
    Number(
      (
        await handle.db
          .selectFrom("email_sends")
          .select((eb) => eb.fn.countAll().as("count"))
          .executeTakeFirstOrThrow()
      ).count,
    );

  it("writes the post, its audit entry and its email when a save publishes", async () => {
    const post = await services.posts.createPost(publishing(), TEST_WRITER);
    expect(post.newsletter).toBe("sent");
    expect(await titles()).toEqual(["A heron at dawn"]);
    expect(await auditActions()).toEqual(["post-published"]);
    expect(await sendCount()).toBe(1);
    expect((await services.postNewsletter.findSends([post.id])).get(post.id)).toMatchObject({ total: 1 });
  });

  it("saves no post when its audit entry cannot be written, and says so", async () => {
    const draft = await services.posts.createPost(publishing({ title: "Draft heron", published: false }), TEST_WRITER);
    await refuseInsertsInto(handle.db, dialect, "audit_log");

    await expect(services.posts.createPost(publishing(), TEST_WRITER)).rejects.toThrow(REFUSAL);
    await expect(
      services.posts.updatePost(draft.id, publishing({ title: "Published heron" }), TEST_WRITER),
    ).rejects.toThrow(REFUSAL);

    expect(await titles()).toEqual(["Draft heron"]);
    const kept = await services.posts.getPostForEditing(draft.id);
    expect(kept).toMatchObject({ published: false, newsletter: "wanted" });
    expect(await services.posts.listRevisions(draft.id)).toHaveLength(1);
    expect(await sendCount()).toBe(0);
  });

  it("saves no post when its email cannot be queued, and says so", async () => {
    await refuseInsertsInto(handle.db, dialect, "email_sends");
    await expect(services.posts.createPost(publishing(), TEST_WRITER)).rejects.toThrow(REFUSAL);
    expect(await titles()).toEqual([]);
    expect(await auditActions()).toEqual([]);
  });

  it("deletes no post when its audit entry cannot be written, and says so", async () => {
    const post = await services.posts.createPost(publishing({ emailSubscribers: false }), TEST_WRITER);
    await refuseInsertsInto(handle.db, dialect, "audit_log");
    await expect(services.posts.deletePost(post.id, TEST_WRITER)).rejects.toThrow(REFUSAL);
    expect(await titles()).toEqual(["A heron at dawn"]);
    expect(await auditActions()).toEqual(["post-published"]);
  });
});
