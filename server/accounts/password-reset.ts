import type { Kysely } from "kysely";
import { PASSWORD_RESET_TTL_MS } from "#domain/account.ts";
import { DomainError } from "#domain/errors.ts";
import type { Database } from "../kernel/db/schema.ts";
import { networkOf, type RateLimiter, type RateLimitPolicy } from "../kernel/rate-limit.ts";
import { createToken, hashToken } from "../kernel/tokens.ts";
import * as admins from "./repositories/admins.ts";
import * as resets from "./repositories/password-resets.ts";
import type { AuditLog } from "./audit.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { hashPassword, OWASP_SCRYPT_COST, type ScryptCost } from "./passwords.ts";

/** Asking costs an email each time: a handful an hour from one network, and for one address. */
const RESET_REQUESTS_PER_NETWORK: RateLimitPolicy = { maxHits: 10, windowMs: 60 * 60 * 1000 };
const RESET_REQUESTS_PER_ADDRESS: RateLimitPolicy = { maxHits: 3, windowMs: 60 * 60 * 1000 };

export const RESET_LINK_INVALID_MESSAGE = "This link has expired or has already been used. Ask for a new one.";

/**
 * A forgotten password, reset through a one-time link emailed to the account's address. Asking
 * answers the same whether or not an account has the address; the link works once, for an hour,
 * and using it voids the account's other links and signs the account out everywhere. Two-factor
 * sign-in stays as it was.
 */
export function createPasswordResetService({
  db,
  now,
  audit,
  rateLimiter,
  loginThrottle,
  sendLink,
  passwordCost = OWASP_SCRYPT_COST,
}: {
  db: Kysely<Database>;
  now: () => Date;
  audit: AuditLog;
  rateLimiter: Pick<RateLimiter, "consume">;
  /** Whose locks a new password lifts, as the command line's reset does. */
  loginThrottle: Pick<LoginThrottle, "liftAccountLocks">;
  /** Queues the link's email (the outbox); false while email is off. */
  sendLink: (to: string, token: string) => Promise<boolean>;
  passwordCost?: ScryptCost;
}) {
  return {
    /** Counts the request, then emails a link when an account has the address; says nothing of which. */
    async request(email: string, clientAddress: string): Promise<void> {
      await rateLimiter.consume(`password-reset-network:${networkOf(clientAddress)}`, RESET_REQUESTS_PER_NETWORK);
      await rateLimiter.consume(`password-reset-address:${email.trim().toLowerCase()}`, RESET_REQUESTS_PER_ADDRESS);
      const account = await admins.findAdminByEmail(db, email);
      if (!account) return;
      const token = createToken();
      const at = now();
      await resets.deleteExpiredPasswordResets(db, at.toISOString());
      await resets.insertPasswordReset(db, {
        tokenHash: hashToken(token),
        adminId: account.id,
        createdAt: at.toISOString(),
        expiresAt: new Date(at.getTime() + PASSWORD_RESET_TTL_MS).toISOString(),
      });
      await sendLink(account.email, token);
    },

    /** Whether the link a page was opened with still works. */
    async isOpen(token: string): Promise<boolean> {
      if (!token) return false;
      return resets.hasOpenPasswordReset(db, hashToken(token), now().toISOString());
    },

    /** Sets the new password and spends the link; throws RESET_LINK_INVALID when it no longer works. */
    async reset(token: string, password: string): Promise<void> {
      if (!(await this.isOpen(token))) throw new DomainError("RESET_LINK_INVALID", RESET_LINK_INVALID_MESSAGE);
      const account = await resets.spendPasswordReset(db, {
        tokenHash: hashToken(token),
        now: now().toISOString(),
        passwordHash: await hashPassword(password, passwordCost),
      });
      if (!account) throw new DomainError("RESET_LINK_INVALID", RESET_LINK_INVALID_MESSAGE);
      await loginThrottle.liftAccountLocks(account.email, account.id);
      await audit.record(
        { id: account.id, label: account.displayName },
        "password-changed",
        `${account.email}, by an emailed reset link`,
      );
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
