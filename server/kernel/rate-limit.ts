import { createHmac, hkdfSync } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "./db/schema.ts";
import { RateLimitedError } from "#domain/errors.ts";
import * as rateLimits from "./repositories/rate-limits.ts";

/** At most `maxHits` attempts per key in each fixed window of `windowMs`. */
export interface RateLimitPolicy {
  maxHits: number;
  windowMs: number;
}

/**
 * What the rate_limits table stores for a key: callers name a key by who it counts (a client
 * address, an email), and the table keeps only an HMAC-SHA256 of it, so a copy of the database
 * names nobody. The HMAC key is derived with HKDF (label "rate-limits") from the secret that salts
 * comment address hashes (COMMENT_IP_SALT or data/comment-ip-salt), which every app server and the
 * CLI read alike, so they all count on the same rows.
 */
export function createRateLimitKeys(secret: string): (key: string) => string {
  const hmacKey = Buffer.from(hkdfSync("sha256", secret, "", "rate-limits", 32));
  return (key) => createHmac("sha256", hmacKey).update(key).digest("base64url");
}

export function createRateLimiter({ db, now, secret }: { db: Kysely<Database>; now: () => Date; secret: string }) {
  const storedKey = createRateLimitKeys(secret);
  return {
    /** Counts one attempt for `key`; throws RateLimitedError, saying when to retry, once the window's budget is spent. */
    async consume(key: string, policy: RateLimitPolicy): Promise<void> {
      const at = now().getTime();
      const state = await rateLimits.recordHit(
        db,
        storedKey(key),
        new Date(at).toISOString(),
        new Date(at - policy.windowMs).toISOString(),
      );
      if (state.hits <= policy.maxHits) return;
      const windowEndsAt = Date.parse(state.windowStartedAt) + policy.windowMs;
      throw new RateLimitedError(Math.max(1, Math.ceil((windowEndsAt - at) / 1000)));
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * A request's address as it is counted and kept: its network only (the first three parts of an
 * IPv4 address, the first three groups of an IPv6 one), enough to tell "my office" from
 * "somewhere else", and one budget for a whole network rather than one per address in it.
 */
export function networkOf(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (address.includes(":")) {
    const groups = address.split("::")[0]!.split(":").filter(Boolean).slice(0, 3);
    return `${groups.join(":")}::/48`;
  }
  return "unknown";
}
