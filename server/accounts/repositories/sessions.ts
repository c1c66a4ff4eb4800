import type { Kysely } from "kysely";
import { type Role, toWritingView, type WritingView } from "#domain/account.ts";
import type { Database } from "../../kernel/db/schema.ts";
import { toIsoString } from "../../kernel/rows.ts";

export interface SessionRecord {
  adminId: string;
  email: string;
  displayName: string;
  role: Role;
  writingView: WritingView;
  createdAt: string;
  lastSeenAt: string;
}

/** One of an account's sessions, as "Your sessions" lists it. */
export interface SessionSummary {
  idHash: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
}

/** Browsers send a few hundred characters; more is not a browser, and is not kept. */
const USER_AGENT_MAX = 512;

export async function insertSession(
  db: Kysely<Database>,
  fields: { idHash: string; adminId: string; now: string; userAgent?: string },
): Promise<void> {
  await db
    .insertInto("sessions")
    .values({
      id_hash: fields.idHash,
      admin_id: fields.adminId,
      created_at: fields.now,
      last_seen_at: fields.now,
      user_agent: (fields.userAgent ?? "").slice(0, USER_AGENT_MAX),
    })
    .execute();
}

/** The account's sessions, most recently used first; a page of them. */
export async function listSessionsForAdmin(
  db: Kysely<Database>,
  adminId: string,
  limit: number,
): Promise<SessionSummary[]> {
  const rows = await db
    .selectFrom("sessions")
    .select(["id_hash", "user_agent", "created_at", "last_seen_at"])
    .where("admin_id", "=", adminId)
    .orderBy("last_seen_at", "desc")
    .orderBy("id_hash")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    idHash: row.id_hash,
    userAgent: row.user_agent,
    createdAt: toIsoString(row.created_at),
    lastSeenAt: toIsoString(row.last_seen_at),
  }));
}

/** Ends one of the account's own sessions; another account's session is never touched. */
export async function deleteSessionOfAdmin(db: Kysely<Database>, adminId: string, idHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom("sessions")
    .where("admin_id", "=", adminId)
    .where("id_hash", "=", idHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteOtherSessions(db: Kysely<Database>, adminId: string, keepIdHash: string): Promise<number> {
  const result = await db
    .deleteFrom("sessions")
    .where("admin_id", "=", adminId)
    .where("id_hash", "!=", keepIdHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findSession(db: Kysely<Database>, idHash: string): Promise<SessionRecord | undefined> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("admins", "admins.id", "sessions.admin_id")
    .select([
      "sessions.admin_id",
      "admins.email",
      "admins.display_name",
      "admins.role",
      "admins.writing_view",
      "sessions.created_at",
      "sessions.last_seen_at",
    ])
    .where("sessions.id_hash", "=", idHash)
    .executeTakeFirst();
  return row
    ? {
        adminId: row.admin_id,
        email: row.email,
        displayName: row.display_name,
        role: row.role === "owner" ? "owner" : "editor",
        writingView: toWritingView(row.writing_view),
        createdAt: toIsoString(row.created_at),
        lastSeenAt: toIsoString(row.last_seen_at),
      }
    : undefined;
}

export async function touchSession(db: Kysely<Database>, idHash: string, now: string): Promise<void> {
  await db.updateTable("sessions").set({ last_seen_at: now }).where("id_hash", "=", idHash).execute();
}

export async function deleteSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
}

export async function deleteSessionsOlderThan(
  db: Kysely<Database>,
  cutoffs: { createdBefore: string; lastSeenBefore: string },
): Promise<number> {
  const result = await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([eb("created_at", "<", cutoffs.createdBefore), eb("last_seen_at", "<", cutoffs.lastSeenBefore)]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
