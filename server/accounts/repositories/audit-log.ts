import type { Kysely } from "kysely";
import type { Database } from "../../kernel/db/schema.ts";
import { type Db, newId, toIsoString } from "../../kernel/rows.ts";

export interface AuditEntry {
  id: string;
  createdAt: string;
  actorId: string | undefined;
  actorLabel: string;
  action: string;
  detail: string;
}

/** Where the next page starts: the last entry shown (newest first). */
export interface AuditCursor {
  createdAt: string;
  id: string;
}

/** `db` may be the transaction of the change it records, so both are kept or neither. */
export async function insertAuditEntry(
  db: Db,
  entry: { createdAt: string; actorId?: string; actorLabel: string; action: string; detail: string },
): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      id: newId(),
      created_at: entry.createdAt,
      actor_id: entry.actorId ?? null,
      actor_label: entry.actorLabel,
      action: entry.action,
      detail: entry.detail,
    })
    .execute();
}

/** A page of entries, newest first, after `before` (keyset on the (created_at, id) index). */
export async function listAuditEntries(
  db: Kysely<Database>,
  { before, limit }: { before?: AuditCursor; limit: number },
): Promise<AuditEntry[]> {
  let query = db.selectFrom("audit_log").selectAll();
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", before.createdAt),
        eb.and([eb("created_at", "=", before.createdAt), eb("id", "<", before.id)]),
      ]),
    );
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: toIsoString(row.created_at),
    actorId: row.actor_id ?? undefined,
    actorLabel: row.actor_label,
    action: row.action,
    detail: row.detail,
  }));
}

export async function deleteAuditEntriesBefore(db: Kysely<Database>, cutoff: string): Promise<number> {
  const result = await db.deleteFrom("audit_log").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
