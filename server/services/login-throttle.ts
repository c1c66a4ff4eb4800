import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { isDomainError, RateLimitedError } from "#domain/errors.ts";
import { guardDatabase } from "../errors.ts";
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
  /**
   * A browser that signed in to the account before (a valid device cookie, OWASP's
   * "device cookies") is not held by the email's lock, so nobody can lock the owner out
   * of their own browser; it has a small budget of its own instead.
   */
  device: { maxFailures: 5, windowMs: 15 * MINUTE_MS, lockMs: 15 * MINUTE_MS, slowAfter: 2 },
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
  /** The nonce of a valid device cookie issued to this browser for this email, if it has one. */
  knownDevice?: string;
}

function loginDeviceKey(nonce: string): string {
  return `login:device:${nonce}`;
}

export interface LoginThrottleDeps {
  db: Kysely<Database>;
  now: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLoginThrottle({ db, now, sleep = sleepFor }: LoginThrottleDeps) {
  const accountKey = (attempt: LoginAttempt) =>
    attempt.knownDevice
      ? ([loginDeviceKey(attempt.knownDevice), LOGIN_THROTTLE_RULES.device] as const)
      : ([loginEmailKey(attempt.email), LOGIN_THROTTLE_RULES.email] as const);
  const keysOf = (attempt: LoginAttempt) =>
    [accountKey(attempt), [loginAddressKey(attempt.clientAddress), LOGIN_THROTTLE_RULES.address] as const] as const;

  async function assertNotLocked(attempt: LoginAttempt): Promise<void> {
    const at = now().getTime();
    for (const [key] of keysOf(attempt)) {
      const state = await guardDatabase(() => rateLimits.findRateLimit(db, key));
      const lockedUntil = state?.blockedUntil ? Date.parse(state.blockedUntil) : 0;
      if (lockedUntil > at) throw new RateLimitedError(Math.ceil((lockedUntil - at) / 1000));
    }
  }

  async function recordFailure(attempt: LoginAttempt): Promise<void> {
    const at = now();
    let delayMs = 0;
    let lockedForMs = 0;
    for (const [key, rule] of keysOf(attempt)) {
      const state = await guardDatabase(() =>
        rateLimits.recordHit(db, key, at.toISOString(), new Date(at.getTime() - rule.windowMs).toISOString()),
      );
      if (state.hits >= rule.maxFailures) {
        await guardDatabase(() => rateLimits.blockKey(db, key, new Date(at.getTime() + rule.lockMs).toISOString()));
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
     * failure that reaches a limit is itself refused. A success clears its email's count (or,
     * from a known browser, that browser's).
     */
    async guardSignIn<T>(attempt: LoginAttempt, signIn: () => Promise<T>): Promise<T> {
      await assertNotLocked(attempt);
      try {
        const result = await signIn();
        await guardDatabase(() => rateLimits.clearRateLimit(db, accountKey(attempt)[0]));
        return result;
      } catch (error) {
        if (isDomainError(error, "INVALID_CREDENTIALS")) await recordFailure(attempt);
        throw error;
      }
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
