import { describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { createMigrator, migrateToLatest } from "../../server/kernel/db/migrate.ts";
import { createServices } from "../../server/composition.ts";
import { testDialects } from "../support/databases.ts";
import { TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const CLIENT = "203.0.113.9";

describe.each(testDialects())("rate-limit counters on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("keep no client address or email in clear, and still count across app servers", async () => {
    const server = () =>
      createServices({
        db: blog.handle.db,
        dialect,
        now: blog.clock.now,
        passwordCost: TEST_PASSWORD_COST,
        commentIpSalt: TEST_COMMENT_IP_SALT,
        emailOn: true,
      });
    const [first, second] = [server(), server()];
    await first.auth.createAdmin("owner@example.com", "a long enough password");

    await first.subscriptions.subscribe("reader@example.com", { clientAddress: CLIENT });
    const failed = await first.loginThrottle
      .guardSignIn({ email: "owner@example.com", clientAddress: CLIENT }, () =>
        first.auth.signIn("owner@example.com", "a wrong password"),
      )
      .catch((error: unknown) => error);
    expect(isDomainError(failed, "INVALID_CREDENTIALS")).toBe(true);

    const rows = await blog.handle.db.selectFrom("rate_limits").select(["key", "hits"]).execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const { key } of rows) {
      expect(key).not.toContain(CLIENT);
      expect(key).not.toContain("example.com");
      expect(key).not.toContain(":");
    }

    // The second server hashes the same way, so it counts on the same rows.
    await second.subscriptions.subscribe("other@example.com", { clientAddress: CLIENT });
    const after = await blog.handle.db.selectFrom("rate_limits").select(["key", "hits"]).execute();
    expect(after.map((row) => Number(row.hits))).toContain(2);
  });

  it("are emptied by the upgrade that hashes them, so no readable key is left behind", async () => {
    const db = blog.handle.db;
    await createMigrator(db, dialect).migrateTo("0020-pages");
    const at = blog.clock.now().toISOString();
    await db
      .insertInto("rate_limits")
      .values({ key: `subscribe:${CLIENT}`, window_started_at: at, hits: 1, blocked_until: null })
      .execute();
    await migrateToLatest(db, dialect);
    expect(await db.selectFrom("rate_limits").selectAll().execute()).toEqual([]);
  });
});
