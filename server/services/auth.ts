import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { DomainError, guardRead, guardWrite } from "../errors.ts";
import * as admins from "../repositories/admins.ts";
import { clearRateLimit } from "../repositories/rate-limits.ts";
import * as sessions from "../repositories/sessions.ts";
import { loginEmailKey } from "./login-throttle.ts";
import { createToken, hashToken } from "./tokens.ts";
import { hashPassword, OWASP_SCRYPT_COST, type ScryptCost, verifyPassword } from "./passwords.ts";

/** A session ends after 14 days without use, and 30 days after sign-in whatever happens. */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** Recording every request's activity would turn each page view into a write. */
const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export interface SessionUser {
  id: string;
  username: string;
  email: string;
  isAdmin: true;
}

export function usernameFromEmail(email: string): string {
  return email.split("@")[0] || "User";
}

export interface AuthServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  passwordCost?: ScryptCost;
}

export function createAuthService({ db, now, passwordCost = OWASP_SCRYPT_COST }: AuthServiceDeps) {
  // Verified against when the email is unknown, so both failures take the same time.
  const decoyHash = hashPassword(randomBytes(16).toString("base64url"), passwordCost);

  async function createAdmin(email: string, password: string) {
    const passwordHash = await hashPassword(password, passwordCost);
    return guardWrite(() => admins.insertAdmin(db, { email, passwordHash, createdAt: now().toISOString() }));
  }

  return {
    createAdmin,

    async hasAnyAdmin(): Promise<boolean> {
      return (await guardRead(() => admins.countAdmins(db))) > 0;
    },

    /** Creates the account unless one with this email exists; true when it created one. */
    async ensureAdmin(email: string, password: string): Promise<boolean> {
      if (await guardRead(() => admins.findAdminByEmail(db, email))) return false;
      await createAdmin(email, password);
      return true;
    },

    /** Also lifts a sign-in lock on the email, so the owner is never locked out of their own blog. */
    async resetPassword(email: string, password: string): Promise<boolean> {
      const account = await guardRead(() => admins.findAdminByEmail(db, email));
      if (!account) return false;
      const passwordHash = await hashPassword(password, passwordCost);
      await guardWrite(() => admins.updateAdminPassword(db, account.id, passwordHash));
      await guardWrite(() => clearRateLimit(db, loginEmailKey(email)));
      return true;
    },

    /** Checks the credentials and opens a new session; its token goes only into the cookie. */
    async signIn(email: string, password: string): Promise<{ token: string; user: SessionUser }> {
      const account = await guardRead(() => admins.findAdminByEmail(db, email));
      const valid = await verifyPassword(password, account?.passwordHash ?? (await decoyHash));
      if (!account || !valid) throw new DomainError("INVALID_CREDENTIALS", "Invalid email or password");
      const token = createToken();
      await guardWrite(() =>
        sessions.insertSession(db, { idHash: hashToken(token), adminId: account.id, now: now().toISOString() }),
      );
      return {
        token,
        user: { id: account.id, email: account.email, username: usernameFromEmail(account.email), isAdmin: true },
      };
    },

    /** The signed-in user for a session token, or undefined when it is unknown or expired. */
    async getSessionUser(token: string | undefined): Promise<SessionUser | undefined> {
      if (!token) return undefined;
      const idHash = hashToken(token);
      const session = await guardRead(() => sessions.findSession(db, idHash));
      if (!session) return undefined;
      const at = now().getTime();
      const idleFor = at - Date.parse(session.lastSeenAt);
      const age = at - Date.parse(session.createdAt);
      if (idleFor > SESSION_IDLE_MS || age > SESSION_ABSOLUTE_MS) {
        await guardWrite(() => sessions.deleteSession(db, idHash));
        return undefined;
      }
      if (idleFor > SESSION_TOUCH_INTERVAL_MS) {
        await guardWrite(() => sessions.touchSession(db, idHash, new Date(at).toISOString()));
      }
      return {
        id: session.adminId,
        email: session.email,
        username: usernameFromEmail(session.email),
        isAdmin: true,
      };
    },

    async signOut(token: string | undefined): Promise<void> {
      if (token) await guardWrite(() => sessions.deleteSession(db, hashToken(token)));
    },

    async deleteExpiredSessions(): Promise<number> {
      const at = now().getTime();
      return guardWrite(() =>
        sessions.deleteSessionsOlderThan(db, {
          createdBefore: new Date(at - SESSION_ABSOLUTE_MS).toISOString(),
          lastSeenBefore: new Date(at - SESSION_IDLE_MS).toISOString(),
        }),
      );
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
