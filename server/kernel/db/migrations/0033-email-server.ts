import type { Kysely } from "kysely";

/**
 * `email_server` (issue 35): the mail server set up on Settings → Email, one row keyed 'smtp'
 * whose `value` is its JSON, the password sealed with AES-256-GCM under a key derived from the
 * server's secret (docs/decisions/0030-email-from-the-admin.md). A table of its own rather than a
 * `settings` row, which exports carry whole: this one is never exported.
 */
export function emailServerSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("email_server")
        .addColumn("key", "text", (col) => col.primaryKey())
        .addColumn("value", "text", (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("email_server").ifExists().execute();
    },
  };
}
