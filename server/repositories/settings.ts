import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** The stored JSON of one setting, or undefined when it was never saved; callers validate it. */
export async function readSetting(db: Kysely<Database>, key: string): Promise<unknown> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return row === undefined ? undefined : JSON.parse(row.value);
}

export async function writeSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto("settings")
    .values({ key, value: json })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value: json }))
    .execute();
}
