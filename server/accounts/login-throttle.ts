import type { Kysely } from "kysely";
import type { Database } from "../kernel/db/schema.ts";
import { isDomainError, RateLimitedError } from "#domain/errors.ts";
import { normaliseEmail } from "./repositories/admins.ts";
import * as rateLimits from "../kernel/repositories/rate-limits.ts";
import { createRateLimitKeys } from "../kernel/rate-limit.ts";

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

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
   * "device cookies") is held neither by the email's lock nor by its address's, which
   * strangers can reach, so nobody can lock the owner out of their own browser; it has a
   * small budget of its own instead.
   */
  device: { maxFailures: 5, windowMs: 15 * MINUTE_MS, lockMs: 15 * MINUTE_MS, slowAfter: 2 },
  address: { maxFailures: 20, windowMs: 15 * MINUTE_MS, lockMs: 60 * MINUTE_MS, slowAfter: 10 },
  /**
   * Wrong two-factor codes (or recovery codes), per account: only someone who has the
   * password reaches this step, so a right password never resets them (docs/decisions/0006).
   * 3 of 10^6 codes pass at any moment (±1 step): 5 guesses per 15-minute lock alone would
   * allow about 480 a day, 1 chance in 700 a day; the daily lock holds it near 20 a day.
   */
  code: { maxFailures: 5, windowMs: 15 * MINUTE_MS, lockMs: 15 * MINUTE_MS, slowAfter: 2 },
  codeDaily: { maxFailures: 20, windowMs: DAY_MS, lockMs: DAY_MS, slowAfter: 20 },
} as const satisfies Record<string, ThrottleRule>;

/** Each failure past `slowAfter` waits one more second before its answer, up to five. */
const DELAY_STEP_MS = 1000;
const MAX_DELAY_MS = 5000;

function loginEmailKey(email: string): string {
  return `login:email:${normaliseEmail(email)}`;
}

/** The account's code-step counters, which only a right code, time or a new password clear. */
function loginCodeKeys(accountId: string): [perWindow: string, perDay: string] {
  return [`login:code:${accountId}`, `login:code-daily:${accountId}`];
}

function loginAddressKey(address: string): string {
  return `login:address:${address}`;
}

interface KnownDeviceAttempt {
  clientAddress: string;
  /** The nonce of a valid device cookie issued to this browser for this email, if it has one. */
  knownDevice?: string;
}

export interface LoginAttempt extends KnownDeviceAttempt {
  email: string;
}

export interface CodeAttempt extends KnownDeviceAttempt {
  /** The account whose password was right (from the signed two-factor cookie). */
  accountId: string;
}

/** One counter an attempt is held by; a success resets it unless it counts the address. */
interface Limit {
  key: string;
  rule: ThrottleRule;
  resetBySuccess: boolean;
}

function passwordLimits(attempt: LoginAttempt): Limit[] {
  if (attempt.knownDevice) {
    return [{ key: `login:device:${attempt.knownDevice}`, rule: LOGIN_THROTTLE_RULES.device, resetBySuccess: true }];
  }
  return [
    { key: loginEmailKey(attempt.email), rule: LOGIN_THROTTLE_RULES.email, resetBySuccess: true },
    { key: loginAddressKey(attempt.clientAddress), rule: LOGIN_THROTTLE_RULES.address, resetBySuccess: false },
  ];
}

/**
 * A known browser's wrong codes have a budget of their own, the same size as the account's,
 * so strangers holding the password cannot lock the owner's browser out of this step either.
 */
function codeLimits(attempt: CodeAttempt): Limit[] {
  const [perWindow, perDay]: [string, string] = attempt.knownDevice
    ? [`login:device-code:${attempt.knownDevice}`, `login:device-code-daily:${attempt.knownDevice}`]
    : loginCodeKeys(attempt.accountId);
  const limits: Limit[] = [
    { key: perWindow, rule: LOGIN_THROTTLE_RULES.code, resetBySuccess: true },
    { key: perDay, rule: LOGIN_THROTTLE_RULES.codeDaily, resetBySuccess: true },
  ];
  if (!attempt.knownDevice) {
    limits.push({
      key: loginAddressKey(attempt.clientAddress),
      rule: LOGIN_THROTTLE_RULES.address,
      resetBySuccess: false,
    });
  }
  return limits;
}

export interface LoginThrottleDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Keys the hash the counters are stored under (createRateLimitKeys): no address or email in clear. */
  secret: string;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLoginThrottle({ db, now, secret, sleep = sleepFor }: LoginThrottleDeps) {
  const storedKey = createRateLimitKeys(secret);

  /** Refuses while any of the limits is locked, saying when the last of them lifts. */
  async function assertNotLocked(limits: Limit[]): Promise<void> {
    const at = now().getTime();
    let lockedUntil = 0;
    for (const { key } of limits) {
      const state = await rateLimits.findRateLimit(db, storedKey(key));
      if (state?.blockedUntil) lockedUntil = Math.max(lockedUntil, Date.parse(state.blockedUntil));
    }
    if (lockedUntil > at) throw new RateLimitedError(Math.ceil((lockedUntil - at) / 1000));
  }

  async function clear(keys: string[]): Promise<void> {
    for (const key of keys) await rateLimits.clearRateLimit(db, storedKey(key));
  }

  async function recordFailure(limits: Limit[]): Promise<void> {
    const at = now();
    let delayMs = 0;
    let lockedForMs = 0;
    for (const { key, rule } of limits) {
      const state = await rateLimits.recordHit(
        db,
        storedKey(key),
        at.toISOString(),
        new Date(at.getTime() - rule.windowMs).toISOString(),
      );
      if (state.hits >= rule.maxFailures) {
        const until = new Date(at.getTime() + rule.lockMs).toISOString();
        await rateLimits.blockKey(db, storedKey(key), until);
        lockedForMs = Math.max(lockedForMs, rule.lockMs);
      } else if (state.hits > rule.slowAfter) {
        delayMs = Math.max(delayMs, Math.min((state.hits - rule.slowAfter) * DELAY_STEP_MS, MAX_DELAY_MS));
      }
    }
    if (lockedForMs > 0) throw new RateLimitedError(lockedForMs / 1000);
    if (delayMs > 0) await sleep(delayMs);
  }

  /**
   * Runs one step under its limits: refused at once while any is locked; a failure is
   * counted on each (and answered more slowly as failures pile up), and the failure that
   * reaches a limit is itself refused. A success resets every limit but the address's.
   */
  async function guard<T>(limits: Limit[], step: () => Promise<T>): Promise<T> {
    await assertNotLocked(limits);
    try {
      const result = await step();
      await clear(limits.filter((limit) => limit.resetBySuccess).map(({ key }) => key));
      return result;
    } catch (error) {
      if (isDomainError(error, "INVALID_CREDENTIALS")) await recordFailure(limits);
      throw error;
    }
  }

  return {
    /** The password step, held by its email and address (or, from a known browser, that browser's budget). */
    guardSignIn: <T>(attempt: LoginAttempt, signIn: () => Promise<T>): Promise<T> =>
      guard(passwordLimits(attempt), signIn),

    /**
     * The code step, held by the account's wrong codes and the address (or, from a known
     * browser, that browser's own wrong codes); the password step never resets these.
     */
    guardCodeStep: <T>(attempt: CodeAttempt, verify: () => Promise<T>): Promise<T> =>
      guard(codeLimits(attempt), verify),

    /** Lifts the locks on an email and on its account's code step (a new password: the owner is let back in). */
    liftAccountLocks: (email: string, accountId: string): Promise<void> =>
      clear([loginEmailKey(email), ...loginCodeKeys(accountId)]),
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
