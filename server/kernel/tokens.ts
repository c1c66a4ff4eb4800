import { createHash, randomBytes } from "node:crypto";

/** A random secret for a link or a cookie: 256 bits, URL-safe. */
export function createToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a token, so a leaked database opens no session and no setup link. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
