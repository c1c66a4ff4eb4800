import type { Kysely } from "kysely";
import type { Database } from "../../kernel/db/schema.ts";

export async function insertPasswordReset(
  db: Kysely<Database>,
  fields: { tokenHash: string; adminId: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto("password_resets")
    .values({
      token_hash: fields.tokenHash,
      admin_id: fields.adminId,
      created_at: fields.createdAt,
      expires_at: fields.expiresAt,
    })
    .execute();
}

export async function deleteExpiredPasswordResets(db: Kysely<Database>, now: string): Promise<number> {
  const result = await db.deleteFrom("password_resets").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether a link is still open: not used, not expired. */
export async function hasOpenPasswordReset(db: Kysely<Database>, tokenHash: string, now: string): Promise<boolean> {
  const row = await db
    .selectFrom("password_resets")
    .select("token_hash")
    .where("token_hash", "=", tokenHash)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Spends the link, with every other link of its account, in one transaction, and sets the new
 * password, signing the account out of every session. Undefined when the link was not open.
 */
export async function spendPasswordReset(
  db: Kysely<Database>,
  fields: { tokenHash: string; now: string; passwordHash: string },
): Promise<{ id: string; email: string; displayName: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .deleteFrom("password_resets")
      .where("token_hash", "=", fields.tokenHash)
      .where("expires_at", ">", fields.now)
      .returning("admin_id")
      .executeTakeFirst();
    if (!spent) return undefined;
    await trx.deleteFrom("password_resets").where("admin_id", "=", spent.admin_id).execute();
    await trx
      .updateTable("admins")
      .set({ password_hash: fields.passwordHash })
      .where("id", "=", spent.admin_id)
      .execute();
    await trx.deleteFrom("sessions").where("admin_id", "=", spent.admin_id).execute();
    const account = await trx
      .selectFrom("admins")
      .select(["id", "email", "display_name"])
      .where("id", "=", spent.admin_id)
      .executeTakeFirst();
    return account ? { id: account.id, email: account.email, displayName: account.display_name } : undefined;
  });
}
