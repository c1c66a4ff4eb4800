import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * Accounts with names and roles, invitations, two-factor sign-in, sessions that remember
 * their browser, the site's own settings and an audit log (issue 13).
 */
export function accountsSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("admins")
        .addColumn("display_name", "text", (col) => col.notNull().defaultTo(""))
        .execute();
      await db.schema
        .alterTable("admins")
        .addColumn("role", "text", (col) => col.notNull().defaultTo("editor"))
        .execute();
      await db.schema.alterTable("admins").addColumn("totp_secret", "text").execute();
      await db.schema.alterTable("admins").addColumn("totp_enabled_at", timestamp).execute();
      await db.schema.alterTable("admins").addColumn("totp_last_step", "integer").execute();
      // A blog has a handful of accounts: reading them here keeps the name rule the same on both databases.
      const existing = await sql<{
        id: string;
        email: string;
      }>`select id, email from admins order by created_at, id`.execute(db);
      for (const [index, admin] of existing.rows.entries()) {
        const displayName = admin.email.split("@")[0] || "User";
        const role = index === 0 ? "owner" : "editor";
        await sql`update admins set display_name = ${displayName}, role = ${role} where id = ${admin.id}`.execute(db);
      }
      // Exactly one owner: the database refuses a second one, whatever the code does.
      await sql`create unique index admins_one_owner on admins (role) where role = 'owner'`.execute(db);

      await db.schema
        .alterTable("sessions")
        .addColumn("user_agent", "text", (col) => col.notNull().defaultTo(""))
        .execute();

      await db.schema
        .createTable("invitations")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("token_hash", "text", (col) => col.notNull().unique())
        .addColumn("email", "text", (col) => col.notNull())
        .addColumn("role", "text", (col) => col.notNull())
        .addColumn("invited_by", "text", (col) => col.references("admins.id").onDelete("set null"))
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addColumn("expires_at", timestamp, (col) => col.notNull())
        .execute();
      await db.schema.createIndex("invitations_created_at").on("invitations").column("created_at").execute();

      await db.schema
        .createTable("recovery_codes")
        .addColumn("admin_id", "text", (col) => col.notNull().references("admins.id").onDelete("cascade"))
        .addColumn("code_hash", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("recovery_codes_pk", ["admin_id", "code_hash"])
        .execute();

      // One row (id 1): the settings as one JSON document, and a version every app server polls.
      await db.schema
        .createTable("site_settings")
        .addColumn("id", "integer", (col) => col.primaryKey())
        .addColumn("value", "text", (col) => col.notNull())
        .addColumn("version", "integer", (col) => col.notNull())
        .addColumn("updated_at", timestamp, (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("audit_log")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addColumn("actor_id", "text")
        .addColumn("actor_label", "text", (col) => col.notNull())
        .addColumn("action", "text", (col) => col.notNull())
        .addColumn("detail", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("audit_log_created_at_id").on("audit_log").columns(["created_at", "id"]).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ["audit_log", "site_settings", "recovery_codes", "invitations"]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
      await sql`drop index if exists admins_one_owner`.execute(db);
      for (const column of ["totp_last_step", "totp_enabled_at", "totp_secret", "role", "display_name"]) {
        await db.schema.alterTable("admins").dropColumn(column).execute();
      }
      await db.schema.alterTable("sessions").dropColumn("user_agent").execute();
    },
  };
}
