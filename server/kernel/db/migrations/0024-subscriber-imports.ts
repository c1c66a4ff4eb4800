import type { Kysely } from "kysely";

/**
 * `subscriber_imports`: the latest subscriber CSV import, one row (`id` 'latest') that each new
 * import takes over, so every app server's Subscribers screen shows how far it got. `run_id`
 * names the import writing it, `heartbeat_at` moves with every batch (a row still 'running'
 * whose heartbeat is a minute old lost its server), and the counts are the report's, with the
 * named invalid lines as JSON once it ends. Times are ISO text on both databases.
 */
export function subscriberImportsSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("subscriber_imports")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("run_id", "text", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("new_state", "text", (col) => col.notNull())
        .addColumn("started_by", "text", (col) => col.notNull())
        .addColumn("started_at", "text", (col) => col.notNull())
        .addColumn("heartbeat_at", "text", (col) => col.notNull())
        .addColumn("finished_at", "text")
        .addColumn("rows_read", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("added", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("already_listed", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("not_subscribed", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("invalid", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("invalid_lines", "text", (col) => col.notNull().defaultTo("[]"))
        .addColumn("failure", "text")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("subscriber_imports").ifExists().execute();
    },
  };
}
