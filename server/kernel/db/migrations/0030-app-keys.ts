import { type Kysely, sql } from "kysely";

/**
 * `app_keys` (issue 37): one row per writing app or headless site a writer let in. `id` is the
 * Ghost Admin API key's id (24 hex digits, the JWT's `kid`); `admin_secret` is that key's
 * secret encrypted with a key derived from the server's secret, since verifying an HMAC needs
 * the secret itself (docs/decisions/0027-app-keys.md); `content_key_hash` and `token_hash` are
 * SHA-256 of the Content API key and of the bearer token, looked up by hash. `user_id` is the
 * account the key acts as; `scope` is 'drafts' or 'publish'. `last_used_address` holds only the
 * network part of the address (an IPv4 /24, an IPv6 /48). Names are unique among keys not
 * revoked, so a revoked name can be given again. Times are ISO text on both databases.
 */
export function appKeysSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("app_keys")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("user_id", "text", (col) => col.notNull())
        .addColumn("scope", "text", (col) => col.notNull())
        .addColumn("admin_secret", "text", (col) => col.notNull())
        .addColumn("content_key_hash", "text", (col) => col.notNull())
        .addColumn("token_hash", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("revoked_at", "text")
        .addColumn("last_used_at", "text")
        .addColumn("last_used_address", "text")
        .execute();
      await db.schema
        .createIndex("app_keys_content_key_hash")
        .on("app_keys")
        .column("content_key_hash")
        .unique()
        .execute();
      await db.schema.createIndex("app_keys_token_hash").on("app_keys").column("token_hash").unique().execute();
      await sql`create unique index app_keys_live_name on app_keys (name) where revoked_at is null`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("app_keys").ifExists().execute();
    },
  };
}
