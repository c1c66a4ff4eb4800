import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** The stored JSON of one setting, or undefined when it was never saved; callers validate it. */
export async function readSetting(db: Kysely<Database>, key: string): Promise<unknown> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return row === undefined ? undefined : JSON.parse(row.value);
}

export async function writeSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  await writeSettingText(db, key, JSON.stringify(value));
}

async function writeSettingText(db: Kysely<Database>, key: string, text: string): Promise<void> {
  await db
    .insertInto("settings")
    .values({ key, value: text })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value: text }))
    .execute();
}

/**
 * One row of the settings table as the settings store keeps it (server/kernel/settings-store.ts).
 * Its JSON text is its version: it changes whenever the value does, so no column counts saves.
 */
export function keyedSettingsRecord(db: Kysely<Database>, key: string) {
  const readText = async () =>
    (await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst())?.value;
  return {
    version: readText,
    async read(): Promise<{ text: string; version: string } | undefined> {
      const text = await readText();
      return text === undefined ? undefined : { text, version: text };
    },
    async write(text: string): Promise<string> {
      await writeSettingText(db, key, text);
      return text;
    },
  };
}
