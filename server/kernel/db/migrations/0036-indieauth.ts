import type { Kysely } from "kysely";

/**
 * IndieAuth (issue 37, docs/decisions/0033-micropub-and-indieauth.md): the blog is its own
 * authorization server. `indieauth_codes` holds authorization codes by their SHA-256 only,
 * with what the code was given for (client, redirect address, scopes, the PKCE S256 challenge,
 * the consenting account); a code lives minutes and `used_at` makes it single-use.
 * `indieauth_tokens` holds access tokens by their SHA-256 only, with the client, the scopes and
 * the account they act as; `revoked_at` stops a token from its next request on every server.
 * Times are ISO text on both databases.
 */
export function indieAuthSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("indieauth_codes")
        .addColumn("code_hash", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull())
        .addColumn("client_id", "text", (col) => col.notNull())
        .addColumn("redirect_uri", "text", (col) => col.notNull())
        .addColumn("scope", "text", (col) => col.notNull())
        .addColumn("code_challenge", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .addColumn("used_at", "text")
        .execute();
      await db.schema
        .createTable("indieauth_tokens")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("token_hash", "text", (col) => col.notNull())
        .addColumn("user_id", "text", (col) => col.notNull())
        .addColumn("client_id", "text", (col) => col.notNull())
        .addColumn("scope", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema
        .createIndex("indieauth_tokens_token_hash")
        .on("indieauth_tokens")
        .column("token_hash")
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("indieauth_tokens").ifExists().execute();
      await db.schema.dropTable("indieauth_codes").ifExists().execute();
    },
  };
}
