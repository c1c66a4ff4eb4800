import type { Kysely } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * Newsletter subscribers and the email outbox (docs/decisions/0014-newsletter-outbox.md).
 * `email_sends` is one send: a post's, made once in its life (the unique `post_id`), or a single
 * email such as a confirmation; its subject and bodies are composed once. `email_deliveries` holds
 * one row per recipient with its state; a worker claims rows with a lease (`claimed_until`), so a
 * crash leaves them to be claimed again. Times are ISO text on both databases, compared as text.
 */
export function newsletterSchema(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("subscribers")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("email", "text", (col) => col.notNull().unique())
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("source", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("confirmed_at", "text")
        .addColumn("unsubscribed_at", "text")
        .addColumn("bounces", "integer", (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex("subscribers_state_created_at")
        .on("subscribers")
        .columns(["state", "created_at", "id"])
        .execute();

      await db.schema
        .createTable("email_sends")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("post_id", "text", (col) => col.unique().references("posts.id").onDelete("set null"))
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("subject", "text", (col) => col.notNull())
        .addColumn("html", "text", (col) => col.notNull())
        .addColumn("text", "text", (col) => col.notNull())
        .addColumn("total", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("sent", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("failed", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("finished_at", "text")
        .execute();

      await db.schema
        .createTable("email_deliveries")
        // The order of claim: a send goes out in the order its rows were queued.
        .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (col) =>
          dialect === "postgres" ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn("send_id", "text", (col) => col.notNull().references("email_sends.id").onDelete("cascade"))
        .addColumn("subscriber_id", "text", (col) => col.references("subscribers.id").onDelete("set null"))
        .addColumn("to_address", "text", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "text", (col) => col.notNull())
        .addColumn("claimed_until", "text")
        .addColumn("last_error", "text")
        .addColumn("sent_at", "text")
        .addUniqueConstraint("email_deliveries_send_subscriber", ["send_id", "subscriber_id"])
        .execute();
      await db.schema
        .createIndex("email_deliveries_state_next_attempt_at")
        .on("email_deliveries")
        .columns(["state", "next_attempt_at", "id"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("email_deliveries").ifExists().execute();
      await db.schema.dropTable("email_sends").ifExists().execute();
      await db.schema.dropTable("subscribers").ifExists().execute();
    },
  };
}
