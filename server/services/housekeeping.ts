import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { guardWrite } from "../errors.ts";
import { deleteStaleRateLimits } from "../repositories/rate-limits.ts";
import type { AuthService } from "./auth.ts";

/** No rate-limit window is longer than a day, so older counters can go. */
const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;

export function createHousekeeping({ db, now, auth }: { db: Kysely<Database>; now: () => Date; auth: AuthService }) {
  return {
    /** Deletes expired sessions and finished rate-limit counters; safe to run from every app server. */
    async purgeExpired(): Promise<{ sessions: number; rateLimits: number }> {
      const at = now();
      const sessions = await auth.deleteExpiredSessions();
      const rateLimits = await guardWrite(() =>
        deleteStaleRateLimits(db, new Date(at.getTime() - RATE_LIMIT_RETENTION_MS).toISOString(), at.toISOString()),
      );
      return { sessions, rateLimits };
    },
  };
}
