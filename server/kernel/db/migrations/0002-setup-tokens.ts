import type { Kysely } from "kysely";
import type { Dialect } from "../connect.ts";

// One-time links that create the first admin; kept in the database so every app server honours them.
export function setupTokensSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("setup_tokens")
        .addColumn("token_hash", "text", (col) => col.primaryKey())
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addColumn("expires_at", timestamp, (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("setup_tokens").ifExists().execute();
    },
  };
}
