import type { Kysely } from "kysely";

/**
 * What each import created, keyed by where it came from ("wordpress:<site>:post:42"), so
 * importing the same file again creates nothing twice.
 */
export function importSourcesSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("import_sources")
        .addColumn("source_key", "text", (col) => col.primaryKey())
        .addColumn("target_id", "text", (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("import_sources").ifExists().execute();
    },
  };
}
