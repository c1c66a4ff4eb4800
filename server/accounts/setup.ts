import type { Kysely } from "kysely";
import type { Database } from "../kernel/db/schema.ts";
import { adminExists } from "./repositories/admins.ts";
import * as setupTokens from "./repositories/setup-tokens.ts";
import { createToken, hashToken } from "../kernel/tokens.ts";
import { hashPassword, OWASP_SCRYPT_COST, type ScryptCost } from "./passwords.ts";

/** Long enough to reach the browser after a restart or a coffee; short enough that an old log is harmless. */
export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export type SetupLinkState = "open" | "invalid" | "closed";

export interface SetupServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  passwordCost?: ScryptCost;
}

/** The one-time link that lets whoever started the server create the first admin from a browser. */
export function createSetupService({ db, now, passwordCost = OWASP_SCRYPT_COST }: SetupServiceDeps) {
  const anyAdmin = () => adminExists(db);

  async function checkSetupLink(token: string): Promise<SetupLinkState> {
    if (await anyAdmin()) return "closed";
    if (!token) return "invalid";
    const valid = await setupTokens.hasUnexpiredSetupToken(db, hashToken(token), now().toISOString());
    return valid ? "open" : "invalid";
  }

  return {
    checkSetupLink,

    /** A new link token while no admin exists (every app server may print its own); undefined once one does. */
    async issueSetupToken(): Promise<string | undefined> {
      if (await anyAdmin()) return undefined;
      const token = createToken();
      const at = now();
      await setupTokens.deleteExpiredSetupTokens(db, at.toISOString());
      await setupTokens.insertSetupToken(db, {
        tokenHash: hashToken(token),
        createdAt: at.toISOString(),
        expiresAt: new Date(at.getTime() + SETUP_TOKEN_TTL_MS).toISOString(),
      });
      return token;
    },

    /** Creates the first admin and spends every outstanding link, or says why the link no longer works. */
    async createFirstAdmin(
      token: string,
      email: string,
      password: string,
    ): Promise<{ created: true; email: string } | { created: false; state: Exclude<SetupLinkState, "open"> }> {
      const state = await checkSetupLink(token);
      if (state !== "open") return { created: false, state };
      const passwordHash = await hashPassword(password, passwordCost);
      const account = await setupTokens.createFirstAdminWithToken(db, {
        tokenHash: hashToken(token),
        now: now().toISOString(),
        email,
        passwordHash,
      });
      if (!account) return { created: false, state: (await anyAdmin()) ? "closed" : "invalid" };
      return { created: true, email: account.email };
    },
  };
}

export type SetupService = ReturnType<typeof createSetupService>;
