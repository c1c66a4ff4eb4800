import type { Kysely } from "kysely";
import type { Database } from "../../kernel/db/schema.ts";
import type { SettingsRecord } from "../../kernel/settings-store.ts";

const KEY = "smtp";

/**
 * The mail server's one row of `email_server` as the settings store keeps it
 * (server/kernel/settings-store.ts): its JSON text is its version, as for a `settings` row.
 */
export function emailServerRecord(db: Kysely<Database>): SettingsRecord {
  const readText = async () =>
    (await db.selectFrom("email_server").select("value").where("key", "=", KEY).executeTakeFirst())?.value;
  return {
    version: readText,
    async read() {
      const text = await readText();
      return text === undefined ? undefined : { text, version: text };
    },
    async write(text) {
      await db
        .insertInto("email_server")
        .values({ key: KEY, value: text })
        .onConflict((conflict) => conflict.column("key").doUpdateSet({ value: text }))
        .execute();
      return text;
    },
  };
}
