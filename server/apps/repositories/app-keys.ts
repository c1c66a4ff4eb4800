// The app_keys table (migration 0030): keys are found by id (an Admin API JWT's kid) or by the
// hash of a Content API key, always with the account they act as, so a revoked key or a removed
// account is refused by the very query that finds the key.
import type { AppKeyScope, AppKeySummary } from "#domain/apps.ts";
import type { Db } from "../../kernel/rows.ts";

export interface AppKeyRow {
  id: string;
  name: string;
  userId: string;
  scope: AppKeyScope;
  adminSecret: string;
  createdAt: string;
}

/** A live key and the account it acts as. */
export interface LiveAppKey extends AppKeyRow {
  userName: string;
  userEmail: string;
}

export async function insertAppKey(
  db: Db,
  row: AppKeyRow & { contentKeyHash: string; tokenHash: string },
): Promise<void> {
  await db
    .insertInto("app_keys")
    .values({
      id: row.id,
      name: row.name,
      user_id: row.userId,
      scope: row.scope,
      admin_secret: row.adminSecret,
      content_key_hash: row.contentKeyHash,
      token_hash: row.tokenHash,
      created_at: row.createdAt,
    })
    .execute();
}

export async function isLiveNameTaken(db: Db, name: string): Promise<boolean> {
  const row = await db
    .selectFrom("app_keys")
    .select("id")
    .where("name", "=", name)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

function selectLiveKeys(db: Db) {
  return db
    .selectFrom("app_keys")
    .innerJoin("admins", "admins.id", "app_keys.user_id")
    .select([
      "app_keys.id",
      "app_keys.name",
      "app_keys.user_id",
      "app_keys.scope",
      "app_keys.admin_secret",
      "app_keys.created_at",
      "app_keys.last_used_at",
      "app_keys.last_used_address",
      "admins.display_name",
      "admins.email",
    ])
    .where("app_keys.revoked_at", "is", null);
}

type LiveKeyRecord = Awaited<ReturnType<ReturnType<typeof selectLiveKeys>["executeTakeFirstOrThrow"]>>;

function toLiveKey(row: LiveKeyRecord): LiveAppKey {
  return {
    id: row.id,
    name: row.name,
    userId: row.user_id,
    scope: row.scope as AppKeyScope,
    adminSecret: row.admin_secret,
    createdAt: row.created_at,
    userName: row.display_name,
    userEmail: row.email,
  };
}

/** The live key with this id (a JWT's kid), with its account; a primary-key seek. */
export async function findLiveKeyById(db: Db, id: string): Promise<LiveAppKey | undefined> {
  const row = await selectLiveKeys(db).where("app_keys.id", "=", id).executeTakeFirst();
  return row ? toLiveKey(row) : undefined;
}

/** The live key whose Content API key hashes to this; a unique-index seek. */
export async function findLiveKeyByContentHash(db: Db, hash: string): Promise<LiveAppKey | undefined> {
  const row = await selectLiveKeys(db).where("app_keys.content_key_hash", "=", hash).executeTakeFirst();
  return row ? toLiveKey(row) : undefined;
}

/** The live key whose bearer token (Micropub, XML-RPC) hashes to this; a unique-index seek. */
export async function findLiveKeyByTokenHash(db: Db, hash: string): Promise<LiveAppKey | undefined> {
  const row = await selectLiveKeys(db).where("app_keys.token_hash", "=", hash).executeTakeFirst();
  return row ? toLiveKey(row) : undefined;
}

/** Live keys, newest first: one account's, or every account's (`userId` undefined, the owner's view). */
export async function listLiveKeys(db: Db, userId: string | undefined, limit: number): Promise<AppKeySummary[]> {
  let query = selectLiveKeys(db).orderBy("app_keys.created_at", "desc").orderBy("app_keys.id").limit(limit);
  if (userId !== undefined) query = query.where("app_keys.user_id", "=", userId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    scope: row.scope as AppKeyScope,
    userName: row.display_name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    lastUsedAddress: row.last_used_address,
  }));
}

/** Revokes a live key, only the account's own unless `userId` is undefined (the owner); false when none matched. */
export async function revokeKey(
  db: Db,
  match: { id?: string; name?: string; userId: string | undefined },
  at: string,
): Promise<{ id: string; name: string } | undefined> {
  let query = db.selectFrom("app_keys").select(["id", "name"]).where("revoked_at", "is", null);
  if (match.id !== undefined) query = query.where("id", "=", match.id);
  if (match.name !== undefined) query = query.where("name", "=", match.name);
  if (match.userId !== undefined) query = query.where("user_id", "=", match.userId);
  const found = await query.executeTakeFirst();
  if (!found) return undefined;
  const result = await db
    .updateTable("app_keys")
    .set({ revoked_at: at })
    .where("id", "=", found.id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? found : undefined;
}

/**
 * Notes a use: at most one write a minute per key (`staleBefore`), so a busy app costs a read
 * per request, not a write.
 */
export async function recordUse(db: Db, id: string, at: string, address: string, staleBefore: string): Promise<void> {
  await db
    .updateTable("app_keys")
    .set({ last_used_at: at, last_used_address: address })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", staleBefore)]))
    .execute();
}

/** The account a key made from the shell acts as: the one with this email, or the owner. */
export async function findKeyHolder(
  db: Db,
  email: string | undefined,
): Promise<{ id: string; label: string; role: string } | undefined> {
  let query = db.selectFrom("admins").select(["id", "display_name", "role"]);
  query =
    email === undefined ? query.where("role", "=", "owner") : query.where("email", "=", email.trim().toLowerCase());
  const row = await query.executeTakeFirst();
  return row ? { id: row.id, label: row.display_name, role: row.role } : undefined;
}
