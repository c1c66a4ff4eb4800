// IndieAuth's codes and tokens (migration 0036), each found by its SHA-256 only. A code is
// claimed by the one update that finds it unused and unexpired, so two redemptions racing on
// two servers give one token; a token is read with its account on every request (no cache).
import type { Db } from "../../kernel/rows.ts";

export interface CodeGrant {
  userId: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
}

export async function insertCode(
  db: Db,
  row: CodeGrant & { codeHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto("indieauth_codes")
    .values({
      code_hash: row.codeHash,
      user_id: row.userId,
      client_id: row.clientId,
      redirect_uri: row.redirectUri,
      scope: row.scope,
      code_challenge: row.codeChallenge,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Marks the code used and gives what it was for; undefined when it is unknown, used or expired. */
export async function claimCode(db: Db, codeHash: string, at: string): Promise<CodeGrant | undefined> {
  const claimed = await db
    .updateTable("indieauth_codes")
    .set({ used_at: at })
    .where("code_hash", "=", codeHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  const row = await db
    .selectFrom("indieauth_codes")
    .select(["user_id", "client_id", "redirect_uri", "scope", "code_challenge"])
    .where("code_hash", "=", codeHash)
    .executeTakeFirstOrThrow();
  return {
    userId: row.user_id,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    scope: row.scope,
    codeChallenge: row.code_challenge,
  };
}

/** Codes past their time are of no use to anyone: cleared as new ones are made. */
export async function deleteExpiredCodes(db: Db, at: string): Promise<void> {
  await db.deleteFrom("indieauth_codes").where("expires_at", "<=", at).execute();
}

export async function insertToken(
  db: Db,
  row: { id: string; tokenHash: string; userId: string; clientId: string; scope: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto("indieauth_tokens")
    .values({
      id: row.id,
      token_hash: row.tokenHash,
      user_id: row.userId,
      client_id: row.clientId,
      scope: row.scope,
      created_at: row.createdAt,
    })
    .execute();
}

export interface LiveToken {
  id: string;
  clientId: string;
  scope: string;
  userId: string;
  userName: string;
  userEmail: string;
}

/** The live token with this hash and its account (a removed account's tokens stop with it). */
export async function findLiveToken(db: Db, tokenHash: string): Promise<LiveToken | undefined> {
  const row = await db
    .selectFrom("indieauth_tokens")
    .innerJoin("admins", "admins.id", "indieauth_tokens.user_id")
    .select([
      "indieauth_tokens.id",
      "indieauth_tokens.client_id",
      "indieauth_tokens.scope",
      "indieauth_tokens.user_id",
      "admins.display_name",
      "admins.email",
    ])
    .where("indieauth_tokens.token_hash", "=", tokenHash)
    .where("indieauth_tokens.revoked_at", "is", null)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        clientId: row.client_id,
        scope: row.scope,
        userId: row.user_id,
        userName: row.display_name,
        userEmail: row.email,
      }
    : undefined;
}

/** Revokes the token with this hash; its client, or undefined when it was unknown or already revoked. */
export async function revokeToken(db: Db, tokenHash: string, at: string): Promise<string | undefined> {
  const found = await db
    .selectFrom("indieauth_tokens")
    .select(["id", "client_id"])
    .where("token_hash", "=", tokenHash)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!found) return undefined;
  await db.updateTable("indieauth_tokens").set({ revoked_at: at }).where("id", "=", found.id).execute();
  return found.client_id;
}

/** An app signed in with IndieAuth, as Settings → Apps lists it: never its token. */
export interface SignedInApp {
  id: string;
  clientId: string;
  scope: string;
  userName: string;
  createdAt: string;
}

/** Live tokens, newest first: one account's, or every account's (`userId` undefined, the owner's view). */
export async function listLiveTokens(db: Db, userId: string | undefined, limit: number): Promise<SignedInApp[]> {
  let query = db
    .selectFrom("indieauth_tokens")
    .innerJoin("admins", "admins.id", "indieauth_tokens.user_id")
    .select([
      "indieauth_tokens.id",
      "indieauth_tokens.client_id",
      "indieauth_tokens.scope",
      "indieauth_tokens.created_at",
      "admins.display_name",
    ])
    .where("indieauth_tokens.revoked_at", "is", null)
    .orderBy("indieauth_tokens.created_at", "desc")
    .orderBy("indieauth_tokens.id")
    .limit(limit);
  if (userId !== undefined) query = query.where("indieauth_tokens.user_id", "=", userId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    clientId: row.client_id,
    scope: row.scope,
    userName: row.display_name,
    createdAt: row.created_at,
  }));
}

/** Revokes a live token by id, only the account's own unless `userId` is undefined (the owner); its client, or undefined. */
export async function revokeTokenById(
  db: Db,
  match: { id: string; userId: string | undefined },
  at: string,
): Promise<string | undefined> {
  let query = db
    .selectFrom("indieauth_tokens")
    .select("client_id")
    .where("id", "=", match.id)
    .where("revoked_at", "is", null);
  if (match.userId !== undefined) query = query.where("user_id", "=", match.userId);
  const found = await query.executeTakeFirst();
  if (!found) return undefined;
  await db.updateTable("indieauth_tokens").set({ revoked_at: at }).where("id", "=", match.id).execute();
  return found.client_id;
}
