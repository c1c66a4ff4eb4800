import type { Kysely } from "kysely";
import type { Database } from "../../kernel/db/schema.ts";

/** The settings live in one row; its version tells every app server when to read them again. */
const ROW_ID = 1;

export interface StoredSiteSettings {
  value: unknown;
  version: number;
}

export async function findSiteSettings(db: Kysely<Database>): Promise<StoredSiteSettings | undefined> {
  const row = await findRow(db);
  return row ? { value: JSON.parse(row.value) as unknown, version: Number(row.version) } : undefined;
}

function findRow(db: Kysely<Database>) {
  return db.selectFrom("site_settings").select(["value", "version"]).where("id", "=", ROW_ID).executeTakeFirst();
}

/** The cheap question each server asks at most once a second: 0 while nothing was ever saved. */
export async function findSiteSettingsVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom("site_settings").select("version").where("id", "=", ROW_ID).executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/** Saves the whole document and moves the version on, in one statement. */
export async function saveSiteSettings(db: Kysely<Database>, value: unknown, updatedAt: string): Promise<number> {
  return saveSiteSettingsText(db, JSON.stringify(value), updatedAt);
}

async function saveSiteSettingsText(db: Kysely<Database>, text: string, updatedAt: string): Promise<number> {
  const row = await db
    .insertInto("site_settings")
    .values({ id: ROW_ID, value: text, version: 1, updated_at: updatedAt })
    .onConflict((oc) =>
      oc.column("id").doUpdateSet((eb) => ({
        value: eb.ref("excluded.value"),
        updated_at: eb.ref("excluded.updated_at"),
        version: eb("site_settings.version", "+", 1),
      })),
    )
    .returning("version")
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

/** The row as the settings store keeps it (server/kernel/settings-store.ts): JSON text and its version. */
export function siteSettingsRecord(db: Kysely<Database>, now: () => Date) {
  return {
    async version(): Promise<string | undefined> {
      const version = await findSiteSettingsVersion(db);
      return version === 0 ? undefined : String(version);
    },
    async read(): Promise<{ text: string; version: string } | undefined> {
      const row = await findRow(db);
      return row ? { text: row.value, version: String(row.version) } : undefined;
    },
    async write(text: string): Promise<string> {
      return String(await saveSiteSettingsText(db, text, now().toISOString()));
    },
  };
}
