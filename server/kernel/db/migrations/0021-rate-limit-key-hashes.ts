import type { Kysely } from "kysely";

/**
 * Rate-limit counters are stored under a keyed hash of their key from now on
 * (server/services/rate-limit.ts createRateLimitKeys), so the rows written before, named by client
 * address or email in clear, are deleted rather than kept beside the new ones. They are
 * short-lived counters: a sign-in lock in force at the upgrade (at most an hour, a day for the
 * daily two-factor lock) and the windows' counts start again.
 */
export function rateLimitKeyHashesSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await (db as Kysely<{ rate_limits: { key: string } }>).deleteFrom("rate_limits").execute();
    },
    // Hashed counters cannot be turned back into readable ones; going down keeps them, unused.
    async down(): Promise<void> {},
  };
}
