import type { Kysely } from "kysely";
import type { Database } from "./kernel/db/schema.ts";
import { periodicWorker, type Worker, type WorkerErrorReporter } from "./kernel/workers.ts";
import { type AuditLog, type AuthService, deleteExpiredInvitations } from "./accounts/index.ts";
import { deleteStaleRateLimits } from "./kernel/repositories/rate-limits.ts";
import type { Analytics } from "./analytics/index.ts";
import type { WebhookService } from "./webhooks/index.ts";

/** No rate-limit window is longer than a day, so older counters can go. */
const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Every app server purges at start and once an hour: nothing expired is worth a quicker look. */
const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

type Purged = {
  sessions: number;
  rateLimits: number;
  invitations: number;
  auditEntries: number;
  webhookDeliveries: number;
};

export function createHousekeeping({
  db,
  now,
  auth,
  audit,
  analytics,
  webhooks,
}: {
  db: Kysely<Database>;
  now: () => Date;
  auth: AuthService;
  audit: AuditLog;
  analytics: Analytics;
  webhooks: Pick<WebhookService, "purgeFinished">;
}) {
  /**
   * Deletes expired sessions, finished rate-limit counters, expired invitations and audit
   * entries older than 180 days, analytics events past their retention and past days' salts,
   * webhook deliveries finished more than 30 days ago; safe to run from every app server.
   */
  async function purgeExpired(): Promise<Purged> {
    const at = now();
    const sessions = await auth.deleteExpiredSessions();
    const rateLimits = await deleteStaleRateLimits(
      db,
      new Date(at.getTime() - RATE_LIMIT_RETENTION_MS).toISOString(),
      at.toISOString(),
    );
    const invitations = await deleteExpiredInvitations(db, at.toISOString());
    const auditEntries = await audit.purgeOld();
    await analytics.purgeExpired();
    const webhookDeliveries = await webhooks.purgeFinished();
    return { sessions, rateLimits, invitations, auditEntries, webhookDeliveries };
  }

  return {
    purgeExpired,

    /** Purges at start and then every hour; `onPurged` hears what each pass deleted. */
    worker(onError: WorkerErrorReporter, onPurged: (purged: Purged) => void): Worker {
      return periodicWorker({
        name: "housekeeping",
        everyMs: HOUSEKEEPING_INTERVAL_MS,
        runAtStart: true,
        run: () => purgeExpired().then(onPurged),
        onError,
      });
    },
  };
}
