// The three credentials an app key carries, and how each is checked (docs/decisions/0027-app-keys.md).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createSecretBox as createKernelSecretBox, type SecretBox } from "../kernel/secret-box.ts";
import { hashToken } from "../kernel/tokens.ts";

/** Ghost's shapes, which its clients check before sending: a 24-hex id, a 64-hex secret, a 26-hex content key. */
export const ADMIN_KEY_ID_PATTERN = /^[0-9a-f]{24}$/;

/** Ghost's own clients sign for five minutes; nothing longer is accepted, and a little clock drift is. */
export const TOKEN_LIFETIME_MAX_SECONDS = 5 * 60;
const CLOCK_SKEW_SECONDS = 30;

export interface NewCredentials {
  id: string;
  adminSecret: string;
  contentKey: string;
  token: string;
}

export function createCredentials(): NewCredentials {
  return {
    id: randomBytes(12).toString("hex"),
    adminSecret: randomBytes(32).toString("hex"),
    contentKey: randomBytes(13).toString("hex"),
    token: randomBytes(32).toString("base64url"),
  };
}

/** What the database keeps of a content key or a token: a SHA-256, looked up as it is. */
export const hashCredential = hashToken;

/** Admin API secrets, sealed under the server's secret (server/kernel/secret-box.ts). */
export function createSecretBox(serverSecret: string): SecretBox {
  return createKernelSecretBox(serverSecret, "app-key-secrets");
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A JWT's parts before its signature is checked: only the key id may be trusted to find the secret. */
export interface UnverifiedToken {
  keyId: string;
  verify: (secretHex: string, nowSeconds: number) => string | undefined;
}

/** The audiences Ghost's Admin API clients sign for: `/admin/`, or a versioned `/v4/admin/`. */
const ADMIN_AUDIENCE = /^\/(?:(?:v\d+(?:\.\d+)?|canary)\/)?admin\/$/;

/**
 * Reads a Ghost Admin API token (`Authorization: Ghost <jwt>`). HS256 alone (a token naming
 * another algorithm, `none` above all, is refused before anything else), a key id in Ghost's
 * shape; `verify` then checks the signature in constant time, the audience, and that the token
 * is current and lives five minutes at most. A problem is a sentence for the caller.
 */
export function readAdminToken(jwt: string): UnverifiedToken | string {
  const parts = jwt.split(".");
  if (parts.length !== 3) return "The token is not a JSON Web Token";
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJson(headerPart);
  const payload = decodeJson(payloadPart);
  if (!header || !payload) return "The token could not be read";
  if (header.alg !== "HS256") return "The token must be signed with HS256";
  const keyId = header.kid;
  if (typeof keyId !== "string" || !ADMIN_KEY_ID_PATTERN.test(keyId)) return "The token names no key";
  return {
    keyId,
    verify(secretHex, nowSeconds) {
      const expected = createHmac("sha256", Buffer.from(secretHex, "hex"))
        .update(`${headerPart}.${payloadPart}`)
        .digest();
      const given = Buffer.from(signaturePart, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return "The token's signature is invalid";
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (!audiences.some((aud) => typeof aud === "string" && ADMIN_AUDIENCE.test(aud))) {
        return "The token is not meant for the Admin API";
      }
      const { iat, exp } = payload;
      if (typeof iat !== "number" || typeof exp !== "number")
        return "The token must say when it was made and when it expires";
      if (exp - iat > TOKEN_LIFETIME_MAX_SECONDS) return "The token lives longer than five minutes";
      if (iat > nowSeconds + CLOCK_SKEW_SECONDS) return "The token was made in the future";
      if (exp <= nowSeconds - CLOCK_SKEW_SECONDS) return "The token has expired";
      return undefined;
    },
  };
}
