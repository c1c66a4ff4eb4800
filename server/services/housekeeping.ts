import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { guardDatabase } from "../errors.ts";
import { deleteExpiredInvitations } from "../repositories/invitations.ts";
import { deleteStaleRateLimits } from "../repositories/rate-limits.ts";
import type { Analytics } from "./analytics.ts";
import type { AuditLog } from "./audit.ts";
import type { AuthService } from "./auth.ts";

/** No rate-limit window is longer than a day, so older counters can go. */
const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;

export function createHousekeeping({
  db,
  now,
  auth,
  audit,
  analytics,
}: {
  db: Kysely<Database>;
  now: () => Date;
  auth: AuthService;
  audit: AuditLog;
  analytics: Analytics;
}) {
  return {
    /**
     * Deletes expired sessions, finished rate-limit counters, expired invitations and audit
     * entries older than 180 days, analytics events past their retention and past days' salts;
     * safe to run from every app server.
     */
    async purgeExpired(): Promise<{ sessions: number; rateLimits: number; invitations: number; auditEntries: number }> {
      const at = now();
      const sessions = await auth.deleteExpiredSessions();
      const rateLimits = await guardDatabase(() =>
        deleteStaleRateLimits(db, new Date(at.getTime() - RATE_LIMIT_RETENTION_MS).toISOString(), at.toISOString()),
      );
      const invitations = await guardDatabase(() => deleteExpiredInvitations(db, at.toISOString()));
      const auditEntries = await audit.purgeOld();
      await analytics.purgeExpired();
      return { sessions, rateLimits, invitations, auditEntries };
    },
  };
}
