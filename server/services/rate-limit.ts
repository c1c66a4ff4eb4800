import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { RateLimitedError } from "#domain/errors.ts";
import { guardDatabase } from "../errors.ts";
import * as rateLimits from "../repositories/rate-limits.ts";

/** At most `maxHits` attempts per key in each fixed window of `windowMs`. */
export interface RateLimitPolicy {
  maxHits: number;
  windowMs: number;
}

export function createRateLimiter({ db, now }: { db: Kysely<Database>; now: () => Date }) {
  return {
    /** Counts one attempt for `key`; throws RateLimitedError, saying when to retry, once the window's budget is spent. */
    async consume(key: string, policy: RateLimitPolicy): Promise<void> {
      const at = now().getTime();
      const state = await guardDatabase(() =>
        rateLimits.recordHit(db, key, new Date(at).toISOString(), new Date(at - policy.windowMs).toISOString()),
      );
      if (state.hits <= policy.maxHits) return;
      const windowEndsAt = Date.parse(state.windowStartedAt) + policy.windowMs;
      throw new RateLimitedError(Math.max(1, Math.ceil((windowEndsAt - at) / 1000)));
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
