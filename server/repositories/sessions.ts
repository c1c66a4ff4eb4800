import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { toIsoString } from "./posts.ts";

export interface SessionRecord {
  adminId: string;
  email: string;
  createdAt: string;
  lastSeenAt: string;
}

export async function insertSession(
  db: Kysely<Database>,
  fields: { idHash: string; adminId: string; now: string },
): Promise<void> {
  await db
    .insertInto("sessions")
    .values({ id_hash: fields.idHash, admin_id: fields.adminId, created_at: fields.now, last_seen_at: fields.now })
    .execute();
}

export async function findSession(db: Kysely<Database>, idHash: string): Promise<SessionRecord | undefined> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("admins", "admins.id", "sessions.admin_id")
    .select(["sessions.admin_id", "admins.email", "sessions.created_at", "sessions.last_seen_at"])
    .where("sessions.id_hash", "=", idHash)
    .executeTakeFirst();
  return row
    ? {
        adminId: row.admin_id,
        email: row.email,
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
