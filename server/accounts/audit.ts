import type { Kysely } from "kysely";
import type { Database } from "../kernel/db/schema.ts";
import * as auditLog from "./repositories/audit-log.ts";
import type { Db } from "../kernel/rows.ts";

/** Kept half a year: long enough to look back on a season, short enough not to become an archive. */
export const AUDIT_RETENTION_MS = 180 * 24 * 60 * 60 * 1000;
export const AUDIT_PAGE_SIZE = 50;

/** Who did something: an account, as named when it happened. */
export interface Actor {
  id?: string;
  label: string;
}

export type AuditAction =
  | "sign-in"
  | "sign-in-failed"
  | "two-factor-enabled"
  | "two-factor-disabled"
  | "two-factor-reset"
  | "recovery-code-used"
  | "password-changed"
  | "user-invited"
  | "invitation-revoked"
  | "invitation-accepted"
  | "ownership-transferred"
  | "user-removed"
  | "settings-changed"
  | "post-published"
  | "post-unpublished"
  | "post-deleted"
  | "page-published"
  | "page-unpublished"
  | "page-deleted"
  | "navigation-changed"
  | "categories-changed"
  | "app-key-created"
  | "app-key-revoked"
  | "app-write"
  | "app-signed-in";

export function createAuditLog({ db, now }: { db: Kysely<Database>; now: () => Date }) {
  return {
    /** `trx`: the transaction of the change recorded, so the change and its entry are kept together or not at all. */
    async record(actor: Actor, action: AuditAction, detail = "", trx: Db = db): Promise<void> {
      await auditLog.insertAuditEntry(trx, {
        createdAt: now().toISOString(),
        actorId: actor.id,
        actorLabel: actor.label.slice(0, 254),
        action,
        detail: detail.slice(0, 500),
      });
    },

    /** A page of entries, newest first, and the cursor of the next page when there is one. */
    async listPage(before?: auditLog.AuditCursor) {
      const rows = await auditLog.listAuditEntries(db, { before, limit: AUDIT_PAGE_SIZE + 1 });
      const entries = rows.slice(0, AUDIT_PAGE_SIZE);
      const last = entries.at(-1);
      const next = rows.length > AUDIT_PAGE_SIZE && last ? { createdAt: last.createdAt, id: last.id } : undefined;
      return { entries, next };
    },

    async purgeOld(): Promise<number> {
      const cutoff = new Date(now().getTime() - AUDIT_RETENTION_MS).toISOString();
      return auditLog.deleteAuditEntriesBefore(db, cutoff);
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
