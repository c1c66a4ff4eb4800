import type { Kysely } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * Webhooks (issue 37, docs/decisions/0035-webhooks.md). `webhooks`: one row per URL the owner
 * gave for an event ('post.published', 'post.updated', 'post.unpublished', 'comment.received');
 * `secret` is its signing secret, AES-256-GCM under a key derived from the server's secret, since
 * signing needs the secret itself. `webhook_deliveries` is a durable queue
 * (server/kernel/durable-queue.ts): one row per event to send, its JSON `body` written in the
 * transaction of the change it tells of; `response_excerpt` keeps at most the first 200
 * characters of the receiver's answer, `last_error` the reason of the last failure in plain
 * words. Deleting a webhook deletes its deliveries. Times are ISO text on both databases.
 */
export function webhooksSchema(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("webhooks")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("event", "text", (col) => col.notNull())
        .addColumn("url", "text", (col) => col.notNull())
        .addColumn("secret", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (col) =>
          dialect === "postgres" ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn("webhook_id", "text", (col) => col.notNull().references("webhooks.id").onDelete("cascade"))
        .addColumn("event", "text", (col) => col.notNull())
        .addColumn("body", "text", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "text", (col) => col.notNull())
        .addColumn("claimed_until", "text")
        .addColumn("last_error", "text")
        .addColumn("response_status", "integer")
        .addColumn("response_excerpt", "text")
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("finished_at", "text")
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_state_next_attempt_at")
        .on("webhook_deliveries")
        .columns(["state", "next_attempt_at", "id"])
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_webhook_id")
        .on("webhook_deliveries")
        .columns(["webhook_id", "id"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("webhook_deliveries").ifExists().execute();
      await db.schema.dropTable("webhooks").ifExists().execute();
    },
  };
}
