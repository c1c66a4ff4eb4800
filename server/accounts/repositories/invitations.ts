import type { Kysely } from "kysely";
import type { Role } from "#domain/account.ts";
import type { Database } from "../../kernel/db/schema.ts";
import { type AdminAccount, findAdminByEmail, insertAdmin, normaliseEmail } from "./admins.ts";
import { newId, toIsoString } from "../../kernel/rows.ts";

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

function toInvitation(row: {
  id: string;
  email: string;
  role: string;
  created_at: Date | string;
  expires_at: Date | string;
}): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role === "owner" ? "owner" : "editor",
    createdAt: toIsoString(row.created_at),
    expiresAt: toIsoString(row.expires_at),
  };
}

export async function insertInvitation(
  db: Kysely<Database>,
  fields: { tokenHash: string; email: string; invitedBy: string; createdAt: string; expiresAt: string },
): Promise<Invitation> {
  const id = newId();
  const email = normaliseEmail(fields.email);
  await db
    .insertInto("invitations")
    .values({
      id,
      token_hash: fields.tokenHash,
      email,
      role: "editor",
      invited_by: fields.invitedBy,
      created_at: fields.createdAt,
      expires_at: fields.expiresAt,
    })
    .execute();
  return { id, email, role: "editor", createdAt: fields.createdAt, expiresAt: fields.expiresAt };
}

/** Invitations still waiting, newest first; a page of them. */
export async function listOpenInvitations(
  db: Kysely<Database>,
  { now, limit }: { now: string; limit: number },
): Promise<Invitation[]> {
  const rows = await db
    .selectFrom("invitations")
    .select(["id", "email", "role", "created_at", "expires_at"])
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toInvitation);
}

export async function deleteInvitation(db: Kysely<Database>, id: string): Promise<Invitation | undefined> {
  const row = await db
    .deleteFrom("invitations")
    .where("id", "=", id)
    .returning(["id", "email", "role", "created_at", "expires_at"])
    .executeTakeFirst();
  return row ? toInvitation(row) : undefined;
}

export async function deleteExpiredInvitations(db: Kysely<Database>, now: string): Promise<number> {
  const result = await db.deleteFrom("invitations").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findOpenInvitation(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<Invitation | undefined> {
  const row = await db
    .selectFrom("invitations")
    .select(["id", "email", "role", "created_at", "expires_at"])
    .where("token_hash", "=", tokenHash)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row ? toInvitation(row) : undefined;
}

/**
 * Spends the invitation and creates its account in one transaction: a link works once.
 * Undefined when the link was not open; "taken" when the email already has an account.
 */
export async function acceptInvitation(
  db: Kysely<Database>,
  fields: { tokenHash: string; now: string; displayName: string; passwordHash: string },
): Promise<AdminAccount | "taken" | undefined> {
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .deleteFrom("invitations")
      .where("token_hash", "=", fields.tokenHash)
      .where("expires_at", ">", fields.now)
      .returning(["email"])
      .executeTakeFirst();
    if (!spent) return undefined;
    if (await findAdminByEmail(trx, spent.email)) return "taken";
    return insertAdmin(trx, {
      email: spent.email,
      passwordHash: fields.passwordHash,
      createdAt: fields.now,
      displayName: fields.displayName,
    });
  });
}
