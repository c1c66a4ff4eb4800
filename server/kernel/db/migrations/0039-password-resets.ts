import type { Kysely } from "kysely";

/**
 * Password resets by email (issue 35, docs/decisions/0036-password-reset-by-email.md). One row per
 * link sent: `token_hash` is the SHA-256 of the link's token (the database never holds a usable
 * link), `admin_id` the account it resets; deleting the account deletes its links. Times are ISO
 * text on both databases.
 */
export function passwordResetsSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("password_resets")
        .addColumn("token_hash", "text", (col) => col.primaryKey())
        .addColumn("admin_id", "text", (col) => col.notNull().references("admins.id").onDelete("cascade"))
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("password_resets_admin_id").on("password_resets").column("admin_id").execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("password_resets").execute();
    },
  };
}
