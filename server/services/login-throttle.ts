import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { guardRead, guardWrite, isDomainError, RateLimitedError } from "../errors.ts";
import { normaliseEmail } from "../repositories/admins.ts";
import * as rateLimits from "../repositories/rate-limits.ts";

const MINUTE_MS = 60 * 1000;

interface ThrottleRule {
  /** Failures within the window that lock the key. */
  maxFailures: number;
  windowMs: number;
  /** How long a locked key is refused. */
  lockMs: number;
  /** Failures after which every further failure is answered slowly. */
  slowAfter: number;
}

/**
 * Failed sign-ins, counted per email and per client address (docs/decisions/0003-admin-sign-in.md).
 * Ghost allows 4 free failures per address+user and then waits 10 minutes and more, with
 * 100 requests per address per hour overall. Counting per email instead stops an attacker
 * who rotates addresses from guessing faster; since that also lets anyone lock the admin out,
 * the lock is short (15 minutes) rather than growing. One address is allowed more failures
 * (typos across accounts) but is then refused for an hour, like Ghost's global block.
 */
export const LOGIN_THROTTLE_RULES = {
  email: { maxFailures: 5, windowMs: 15 * MINUTE_MS, lockMs: 15 * MINUTE_MS, slowAfter: 2 },
  address: { maxFailures: 20, windowMs: 15 * MINUTE_MS, lockMs: 60 * MINUTE_MS, slowAfter: 10 },
} as const satisfies Record<string, ThrottleRule>;

/** Each failure past `slowAfter` waits one more second before its answer, up to five. */
const DELAY_STEP_MS = 1000;
const MAX_DELAY_MS = 5000;

export function loginEmailKey(email: string): string {
  return `login:email:${normaliseEmail(email)}`;
}

function loginAddressKey(address: string): string {
  return `login:address:${address}`;
}

export interface LoginAttempt {
  email: string;
  clientAddress: string;
}

export interface LoginThrottleDeps {
  db: Kysely<Database>;
  now: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLoginThrottle({ db, now, sleep = sleepFor }: LoginThrottleDeps) {
  const keysOf = (attempt: LoginAttempt) =>
    [
      [loginEmailKey(attempt.email), LOGIN_THROTTLE_RULES.email],
      [loginAddressKey(attempt.clientAddress), LOGIN_THROTTLE_RULES.address],
    ] as const;

  async function assertNotLocked(attempt: LoginAttempt): Promise<void> {
    const at = now().getTime();
    for (const [key] of keysOf(attempt)) {
      const state = await guardRead(() => rateLimits.findRateLimit(db, key));
      const lockedUntil = state?.blockedUntil ? Date.parse(state.blockedUntil) : 0;
      if (lockedUntil > at) throw new RateLimitedError(Math.ceil((lockedUntil - at) / 1000));
    }
  }

  async function recordFailure(attempt: LoginAttempt): Promise<void> {
    const at = now();
    let delayMs = 0;
    let lockedForMs = 0;
    for (const [key, rule] of keysOf(attempt)) {
      const state = await guardWrite(() =>
        rateLimits.recordHit(db, key, at.toISOString(), new Date(at.getTime() - rule.windowMs).toISOString()),
      );
      if (state.hits >= rule.maxFailures) {
        await guardWrite(() => rateLimits.blockKey(db, key, new Date(at.getTime() + rule.lockMs).toISOString()));
        lockedForMs = Math.max(lockedForMs, rule.lockMs);
      } else if (state.hits > rule.slowAfter) {
        delayMs = Math.max(delayMs, Math.min((state.hits - rule.slowAfter) * DELAY_STEP_MS, MAX_DELAY_MS));
      }
    }
    if (lockedForMs > 0) throw new RateLimitedError(lockedForMs / 1000);
    if (delayMs > 0) await sleep(delayMs);
  }

  return {
    /**
     * Runs one sign-in attempt under the limits: refused at once while its email or address
     * is locked; a failure is counted (and answered more slowly as failures pile up), and the
     * failure that reaches a limit is itself refused. A success clears its email's count.
     */
    async guardSignIn<T>(attempt: LoginAttempt, signIn: () => Promise<T>): Promise<T> {
      await assertNotLocked(attempt);
      try {
        const result = await signIn();
        await guardWrite(() => rateLimits.clearRateLimit(db, loginEmailKey(attempt.email)));
        return result;
      } catch (error) {
        if (isDomainError(error, "INVALID_CREDENTIALS")) await recordFailure(attempt);
        throw error;
      }
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
