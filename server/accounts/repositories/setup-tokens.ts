import type { Kysely } from "kysely";
import type { Database } from "../../kernel/db/schema.ts";
import { type AdminAccount, insertAdmin } from "./admins.ts";

export async function insertSetupToken(
  db: Kysely<Database>,
  fields: { tokenHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto("setup_tokens")
    .values({ token_hash: fields.tokenHash, created_at: fields.createdAt, expires_at: fields.expiresAt })
    .execute();
}

export async function deleteExpiredSetupTokens(db: Kysely<Database>, now: string): Promise<void> {
  await db.deleteFrom("setup_tokens").where("expires_at", "<=", now).execute();
}

export async function hasUnexpiredSetupToken(db: Kysely<Database>, tokenHash: string, now: string): Promise<boolean> {
  const row = await db
    .selectFrom("setup_tokens")
    .select("token_hash")
    .where("token_hash", "=", tokenHash)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Spends the token and creates the first admin in one transaction, and only while no admin
 * exists. Every other outstanding token dies with it, so two servers' links cannot both
 * create an account. Undefined when the token was not valid or an admin already existed.
 */
export async function createFirstAdminWithToken(
  db: Kysely<Database>,
  fields: { tokenHash: string; now: string; email: string; passwordHash: string },
): Promise<AdminAccount | undefined> {
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .deleteFrom("setup_tokens")
      .where("token_hash", "=", fields.tokenHash)
      .where("expires_at", ">", fields.now)
      .returning("token_hash")
      .execute();
    if (spent.length === 0) return undefined;
    await trx.deleteFrom("setup_tokens").execute();
    const existing = await trx.selectFrom("admins").select("id").limit(1).executeTakeFirst();
    if (existing) return undefined;
    return insertAdmin(trx, { email: fields.email, passwordHash: fields.passwordHash, createdAt: fields.now });
  });
}
