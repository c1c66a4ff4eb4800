import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** The settings live in one row; its version tells every app server when to read them again. */
const ROW_ID = 1;

export interface StoredSiteSettings {
  value: unknown;
  version: number;
}

export async function findSiteSettings(db: Kysely<Database>): Promise<StoredSiteSettings | undefined> {
  const row = await db
    .selectFrom("site_settings")
    .select(["value", "version"])
    .where("id", "=", ROW_ID)
    .executeTakeFirst();
  return row ? { value: JSON.parse(row.value) as unknown, version: Number(row.version) } : undefined;
}

/** The cheap question each server asks at most once a second: 0 while nothing was ever saved. */
export async function findSiteSettingsVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom("site_settings").select("version").where("id", "=", ROW_ID).executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/** Saves the whole document and moves the version on, in one statement. */
export async function saveSiteSettings(db: Kysely<Database>, value: unknown, updatedAt: string): Promise<number> {
  const row = await db
    .insertInto("site_settings")
    .values({ id: ROW_ID, value: JSON.stringify(value), version: 1, updated_at: updatedAt })
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
