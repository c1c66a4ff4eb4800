import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import * as OTPAuth from "otpauth";
import { RECOVERY_CODE_COUNT } from "#domain/account.ts";
import { DomainError } from "#domain/errors.ts";
import type { Database } from "../kernel/db/schema.ts";
import * as admins from "./repositories/admins.ts";
import type { AuditLog } from "./audit.ts";
import { hashToken } from "../kernel/tokens.ts";

/** RFC 6238 defaults, which every authenticator app understands. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** One step either side: a phone's clock a little off, or a code typed as it changed. */
const WINDOW = 1;
const ISSUER = "Inkwell";

export const INVALID_CODE_MESSAGE = "That code is not valid";

function totpFor(secret: string, label: string) {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** "a1b2-c3d4-e5f6-a7b8": 64 random bits, easy to copy by hand. */
function createRecoveryCode(): string {
  return randomBytes(8).toString("hex").match(/.{4}/g)!.join("-");
}

/** Codes are compared as typed without spaces, dashes or capitals. */
export function normaliseCode(code: string): string {
  return code.replace(/[\s-]/g, "").toLowerCase();
}

export interface Enrolment {
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as an SVG QR code, made here: no outside service sees the secret. */
  qrCodeDataUrl: string;
}

export function createTwoFactorService({ db, now, audit }: { db: Kysely<Database>; now: () => Date; audit: AuditLog }) {
  async function requireAccount(adminId: string) {
    const account = await admins.findAdminById(db, adminId);
    if (!account) throw new DomainError("ACCOUNT_NOT_FOUND", "This account no longer exists");
    return account;
  }

  /** The time step a 6-digit code belongs to, within the window, or undefined. */
  function matchingStep(secret: string, label: string, code: string): number | undefined {
    if (!/^\d{6}$/.test(code)) return undefined;
    const timestamp = now().getTime();
    const delta = totpFor(secret, label).validate({ token: code, timestamp, window: WINDOW });
    if (delta === null) return undefined;
    return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  }

  async function describeEnrolment(secret: string, email: string): Promise<Enrolment> {
    const otpauthUrl = totpFor(secret, email).toString();
    // Imported on first use, like every library only rare admin tasks need (docs/conventions.md).
    const { default: QRCode } = await import("qrcode");
    const svg = await QRCode.toString(otpauthUrl, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
    return { secret, otpauthUrl, qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
  }

  return {
    /** Starts enrolment with a new secret (replacing one never confirmed); nothing changes once enrolled. */
    async startEnrolment(adminId: string): Promise<void> {
      const account = await requireAccount(adminId);
      if (account.totpEnabled) return;
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      await admins.setPendingTotpSecret(db, adminId, secret);
    },

    /**
     * The enrolment in progress, if any. The secret is shown only until the first code
     * confirms it; after that no screen shows it again.
     */
    async pendingEnrolment(adminId: string): Promise<Enrolment | undefined> {
      const account = await requireAccount(adminId);
      if (account.totpEnabled || !account.totpSecret) return undefined;
      return describeEnrolment(account.totpSecret, account.email);
    },

    /** Confirms enrolment with one valid code; the recovery codes are returned this once. */
    async confirmEnrolment(adminId: string, code: string): Promise<string[]> {
      const account = await requireAccount(adminId);
      if (account.totpEnabled || !account.totpSecret) {
        throw new DomainError("INVALID_CREDENTIALS", INVALID_CODE_MESSAGE);
      }
      const step = matchingStep(account.totpSecret, account.email, normaliseCode(code));
      if (step === undefined) throw new DomainError("INVALID_CREDENTIALS", INVALID_CODE_MESSAGE);
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, createRecoveryCode);
      await admins.enableTotp(db, adminId, {
        enabledAt: now().toISOString(),
        step,
        recoveryCodeHashes: codes.map((recoveryCode) => hashToken(normaliseCode(recoveryCode))),
      });
      await audit.record({ id: account.id, label: account.displayName }, "two-factor-enabled");
      return codes;
    },

    /**
     * Accepts a current code (never one already used) or an unused recovery code;
     * anything else is INVALID_CREDENTIALS, which the sign-in throttle counts.
     */
    async verifyCode(adminId: string, code: string): Promise<void> {
      const account = await requireAccount(adminId);
      if (!account.totpEnabled || !account.totpSecret)
        throw new DomainError("INVALID_CREDENTIALS", INVALID_CODE_MESSAGE);
      const typed = normaliseCode(code);
      const step = matchingStep(account.totpSecret, account.email, typed);
      if (step !== undefined) {
        if (await admins.claimTotpStep(db, adminId, step)) return;
        throw new DomainError("INVALID_CREDENTIALS", INVALID_CODE_MESSAGE);
      }
      if (typed.length > 6 && (await admins.spendRecoveryCode(db, adminId, hashToken(typed)))) {
        const left = await admins.countRecoveryCodes(db, adminId);
        await audit.record({ id: account.id, label: account.displayName }, "recovery-code-used", `${left} left`);
        return;
      }
      throw new DomainError("INVALID_CREDENTIALS", INVALID_CODE_MESSAGE);
    },

    async status(adminId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
      const account = await requireAccount(adminId);
      const recoveryCodesLeft = account.totpEnabled ? await admins.countRecoveryCodes(db, adminId) : 0;
      return { enabled: account.totpEnabled, recoveryCodesLeft };
    },

    /** Turns two-factor sign-in off; the caller has checked the password and a code. */
    async disable(adminId: string): Promise<void> {
      const account = await requireAccount(adminId);
      await admins.disableTotp(db, adminId);
      await audit.record({ id: account.id, label: account.displayName }, "two-factor-disabled");
    },

    /** For the owner locked out (CLI): two-factor sign-in off, so the password alone works again. */
    async reset(email: string): Promise<boolean> {
      const account = await admins.findAdminByEmail(db, email);
      if (!account) return false;
      await admins.disableTotp(db, account.id);
      await audit.record({ label: "command line" }, "two-factor-reset", account.email);
      return true;
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
