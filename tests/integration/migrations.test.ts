import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/kernel/db/connect.ts";
import { createMigrator, migrateToLatest } from "../../server/kernel/db/migrate.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";

describe.each(testDialects())("migrations on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    await handle?.close();
  });

  it("are safe to run again on an up-to-date database", async () => {
    expect(await migrateToLatest(handle.db, dialect)).toEqual([]);
    expect(await migrateToLatest(handle.db, dialect)).toEqual([]);
  });

  it("step back over the newest one and forward again", async () => {
    const migrator = createMigrator(handle.db, dialect);
    const names = (await migrator.getMigrations()).map((migration) => migration.name);
    const [previous, newest] = names.slice(-2);
    const { error, results } = await migrator.migrateTo(previous!);
    expect(error).toBeUndefined();
    expect(results?.map((result) => `${result.direction} ${result.migrationName}`)).toEqual([`Down ${newest}`]);
    expect(await migrateToLatest(handle.db, dialect)).toEqual([newest]);
  });

  it("create the tables every query needs", async () => {
    const tables = (await handle.db.introspection.getTables()).map((table) => table.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "posts",
        "post_tags",
        "post_search",
        "comments",
        "admins",
        "sessions",
        "rate_limits",
        "subscribers",
        "email_sends",
        "email_deliveries",
        "fediverse_followers",
        "fediverse_reactions",
        "fedify_kv",
        "fedify_messages",
        "fediverse_posts",
        "fediverse_keys",
        "pages",
        "page_revisions",
        "page_preview_tokens",
        "page_media_uses",
        "subscriber_imports",
      ]),
    );
  });
});
