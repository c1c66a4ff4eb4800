import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Role, WritingView } from "#domain/account.ts";
import { DomainError } from "#domain/errors.ts";
import type { Database } from "../kernel/db/schema.ts";
import * as admins from "./repositories/admins.ts";
import * as sessions from "./repositories/sessions.ts";
import type { AuditLog } from "./audit.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { hashPassword, OWASP_SCRYPT_COST, type ScryptCost, verifyPassword } from "./passwords.ts";
import { createToken, hashToken } from "../kernel/tokens.ts";
import { TWO_FACTOR_CHALLENGE_MS, type TwoFactorChallenge } from "../kernel/session-cookie.ts";
import type { TwoFactorService } from "./two-factor.ts";

/** A session ends after 14 days without use, and 30 days after sign-in whatever happens. */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** Recording every request's activity would turn each page view into a write. */
const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;
/** "Your sessions" shows this many; more would be a sign to sign out the others. */
const SESSIONS_SHOWN = 50;

export interface SessionUser {
  id: string;
  /** The account's display name. */
  username: string;
  email: string;
  role: Role;
  /** The body's view the writer last chose in the editor. */
  writingView: WritingView;
  isAdmin: true;
}

export type SignInStep =
  { kind: "session"; token: string; user: SessionUser } | { kind: "two-factor"; challenge: TwoFactorChallenge };

export interface ClientDetails {
  userAgent?: string;
}

export function usernameFromEmail(email: string): string {
  return email.split("@")[0] || "User";
}

function toSessionUser(account: {
  id: string;
  email: string;
  displayName: string;
  role: Role;
  writingView: WritingView;
}): SessionUser {
  return {
    id: account.id,
    email: account.email,
    username: account.displayName,
    role: account.role,
    writingView: account.writingView,
    isAdmin: true,
  };
}

const invalidCredentials = () => new DomainError("INVALID_CREDENTIALS", "Invalid email or password");

export interface AuthServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  passwordCost?: ScryptCost;
  audit: AuditLog;
  twoFactor: TwoFactorService;
  /** Whose locks a new password lifts. */
  loginThrottle: Pick<LoginThrottle, "liftAccountLocks">;
}

export function createAuthService({
  db,
  now,
  passwordCost = OWASP_SCRYPT_COST,
  audit,
  twoFactor,
  loginThrottle,
}: AuthServiceDeps) {
  // Verified against when the email is unknown, so both failures take the same time. Made on
  // the first check, not at boot: scrypt at this cost holds 128 MiB while it runs (so the first
  // unknown address after a start takes one hash longer).
  let decoyHash: Promise<string> | undefined;
  const passwordHashOrDecoy = (account: { passwordHash: string } | undefined) =>
    account?.passwordHash ?? (decoyHash ??= hashPassword(randomBytes(16).toString("base64url"), passwordCost));

  async function createAdmin(email: string, password: string) {
    const passwordHash = await hashPassword(password, passwordCost);
    return admins.insertAdmin(db, { email, passwordHash, createdAt: now().toISOString() });
  }

  async function openSession(
    account: { id: string; email: string; displayName: string; role: Role; writingView: WritingView },
    client: ClientDetails,
  ): Promise<{ token: string; user: SessionUser }> {
    const token = createToken();
    await sessions.insertSession(db, {
      idHash: hashToken(token),
      adminId: account.id,
      now: now().toISOString(),
      userAgent: client.userAgent,
    });
    await audit.record({ id: account.id, label: account.displayName }, "sign-in");
    return { token, user: toSessionUser(account) };
  }

  /** The password's account, or INVALID_CREDENTIALS (recorded in the audit log). */
  async function checkPassword(email: string, password: string) {
    const account = await admins.findAdminByEmail(db, email);
    const valid = await verifyPassword(password, await passwordHashOrDecoy(account));
    if (!account || !valid) {
      await audit.record(
        account ? { id: account.id, label: account.displayName } : { label: email.trim() },
        "sign-in-failed",
        "wrong password",
      );
      throw invalidCredentials();
    }
    return account;
  }

  async function beginSignIn(email: string, password: string, client: ClientDetails = {}): Promise<SignInStep> {
    const account = await checkPassword(email, password);
    if (account.totpEnabled) {
      return {
        kind: "two-factor",
        challenge: { adminId: account.id, email: account.email, issuedAt: now().toISOString() },
      };
    }
    return { kind: "session", ...(await openSession(account, client)) };
  }

  return {
    createAdmin,

    async hasAnyAdmin(): Promise<boolean> {
      return admins.adminExists(db);
    },

    /** Creates the account unless one with this email exists; true when it created one. */
    async ensureAdmin(email: string, password: string): Promise<boolean> {
      if (await admins.findAdminByEmail(db, email)) return false;
      await createAdmin(email, password);
      return true;
    },

    /**
     * Also lifts the sign-in locks on the email and on the account's code step, so the owner is
     * never locked out of their own blog (and whoever guessed codes with the old password stops).
     */
    async resetPassword(email: string, password: string): Promise<boolean> {
      const account = await admins.findAdminByEmail(db, email);
      if (!account) return false;
      const passwordHash = await hashPassword(password, passwordCost);
      await admins.updateAdminPassword(db, account.id, passwordHash);
      await loginThrottle.liftAccountLocks(email, account.id);
      await audit.record({ label: "command line" }, "password-changed", account.email);
      return true;
    },

    /**
     * Checks the credentials. Without two-factor sign-in this opens the session (its token
     * goes only into the cookie); with it, the caller asks for a code next.
     */
    beginSignIn,

    /** Signs in an account without two-factor sign-in (setup, tests). */
    async signIn(email: string, password: string, client: ClientDetails = {}) {
      const step = await beginSignIn(email, password, client);
      if (step.kind !== "session") throw invalidCredentials();
      return { token: step.token, user: step.user };
    },

    /** The second step: a code (or recovery code) for a challenge still fresh. */
    async completeTwoFactorSignIn(challenge: TwoFactorChallenge, code: string, client: ClientDetails = {}) {
      if (now().getTime() - Date.parse(challenge.issuedAt) > TWO_FACTOR_CHALLENGE_MS) {
        throw new DomainError("TWO_FACTOR_EXPIRED", "The sign-in took too long. Please enter your password again.");
      }
      const account = await admins.findAdminById(db, challenge.adminId);
      if (!account) throw new DomainError("TWO_FACTOR_EXPIRED", "Please sign in again.");
      try {
        await twoFactor.verifyCode(account.id, code);
      } catch (error) {
        await audit.record({ id: account.id, label: account.displayName }, "sign-in-failed", "wrong code");
        throw error;
      }
      return openSession(account, client);
    },

    /** Checks an account's password again before a sensitive change (turning 2FA off). */
    async confirmPassword(adminId: string, password: string): Promise<void> {
      const account = await admins.findAdminById(db, adminId);
      const valid = await verifyPassword(password, await passwordHashOrDecoy(account));
      if (!account || !valid) throw new DomainError("INVALID_CREDENTIALS", "Your password is not right");
    },

    /** A new password; every other session of the account ends, the one that asked stays. */
    async changePassword(user: SessionUser, sessionToken: string, currentPassword: string, newPassword: string) {
      const account = await admins.findAdminById(db, user.id);
      if (!account || !(await verifyPassword(currentPassword, account.passwordHash))) {
        throw new DomainError("INVALID_CREDENTIALS", "Your current password is not right");
      }
      const passwordHash = await hashPassword(newPassword, passwordCost);
      await admins.updateAdminPassword(db, account.id, passwordHash, hashToken(sessionToken));
      await audit.record({ id: account.id, label: account.displayName }, "password-changed");
    },

    /** The signed-in user for a session token, or undefined when it is unknown or expired. */
    async getSessionUser(token: string | undefined): Promise<SessionUser | undefined> {
      if (!token) return undefined;
      const idHash = hashToken(token);
      const session = await sessions.findSession(db, idHash);
      if (!session) return undefined;
      const at = now().getTime();
      const idleFor = at - Date.parse(session.lastSeenAt);
      const age = at - Date.parse(session.createdAt);
      if (idleFor > SESSION_IDLE_MS || age > SESSION_ABSOLUTE_MS) {
        await sessions.deleteSession(db, idHash);
        return undefined;
      }
      if (idleFor > SESSION_TOUCH_INTERVAL_MS) {
        await sessions.touchSession(db, idHash, new Date(at).toISOString());
      }
      return toSessionUser({
        id: session.adminId,
        email: session.email,
        displayName: session.displayName,
        role: session.role,
        writingView: session.writingView,
      });
    },

    /** The account's sessions, the one asking marked `current`. */
    async listSessions(adminId: string, currentToken: string | undefined) {
      const currentHash = currentToken ? hashToken(currentToken) : undefined;
      const rows = await sessions.listSessionsForAdmin(db, adminId, SESSIONS_SHOWN);
      return rows.map((row) => ({ ...row, current: row.idHash === currentHash }));
    },

    async signOutSession(adminId: string, idHash: string): Promise<boolean> {
      return sessions.deleteSessionOfAdmin(db, adminId, idHash);
    },

    async signOutOtherSessions(adminId: string, currentToken: string): Promise<number> {
      return sessions.deleteOtherSessions(db, adminId, hashToken(currentToken));
    },

    async signOut(token: string | undefined): Promise<void> {
      if (token) await sessions.deleteSession(db, hashToken(token));
    },

    async deleteExpiredSessions(): Promise<number> {
      const at = now().getTime();
      return sessions.deleteSessionsOlderThan(db, {
        createdBefore: new Date(at - SESSION_ABSOLUTE_MS).toISOString(),
        lastSeenBefore: new Date(at - SESSION_IDLE_MS).toISOString(),
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
