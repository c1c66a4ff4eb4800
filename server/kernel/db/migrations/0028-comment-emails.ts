import type { Kysely } from "kysely";

/**
 * Comment emails (issue 34, docs/decisions/0024-comment-emails.md). A reader who asks to be told
 * of replies leaves an address kept only as `comment_reply_addresses`: an HMAC for matching and
 * an AES-GCM sealed copy for sending, gone with its comment; no row when the field was empty.
 * `comment_reply_optouts` holds the HMAC of every address that unsubscribed, `comment_reply_notices`
 * one row per reply told (once, and counted per address for the daily cap), `comment_email_digests`
 * one row per day whose digest a server claimed. `email_deliveries.comment_id` addresses a delivery
 * to the reader of that comment, resolved at send time, so the outbox never holds the address in
 * clear. `comments_created_at` serves the digest's read of a day's comments.
 */
export function commentEmailsSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("comment_reply_addresses")
        .addColumn("comment_id", "text", (col) => col.primaryKey().references("comments.id").onDelete("cascade"))
        .addColumn("email_hash", "text", (col) => col.notNull())
        .addColumn("email_sealed", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("comment_reply_addresses_email_hash")
        .on("comment_reply_addresses")
        .column("email_hash")
        .execute();
      await db.schema
        .createTable("comment_reply_optouts")
        .addColumn("email_hash", "text", (col) => col.primaryKey())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("comment_reply_notices")
        .addColumn("reply_id", "text", (col) => col.primaryKey().references("comments.id").onDelete("cascade"))
        .addColumn("email_hash", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("comment_reply_notices_email_hash_created_at")
        .on("comment_reply_notices")
        .columns(["email_hash", "created_at"])
        .execute();
      await db.schema
        .createTable("comment_email_digests")
        .addColumn("day", "text", (col) => col.primaryKey())
        .addColumn("covered_until", "text", (col) => col.notNull())
        .execute();
      await db.schema.alterTable("email_deliveries").addColumn("comment_id", "text").execute();
      await db.schema.createIndex("comments_created_at").on("comments").columns(["created_at", "id"]).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("comments_created_at").execute();
      await db.schema.alterTable("email_deliveries").dropColumn("comment_id").execute();
      await db.schema.dropTable("comment_email_digests").execute();
      await db.schema.dropTable("comment_reply_notices").execute();
      await db.schema.dropTable("comment_reply_optouts").execute();
      await db.schema.dropTable("comment_reply_addresses").execute();
    },
  };
}
