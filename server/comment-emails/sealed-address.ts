import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { subscriberAddressKey } from "#domain/newsletter.ts";

/** The longest token; anything longer is refused before any work. */
const TOKEN_MAX = 120;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A reader's address as the blog keeps it (docs/decisions/0024): an HMAC to match it (the same
 * address in any case gives the same hash) and an AES-256-GCM sealed copy to send to, each under
 * its own key derived from the server's secret with HKDF; and the signed token of their
 * one-click unsubscribe link, `r.<comment id>.<HMAC-SHA256>`, which never expires.
 */
export function createAddressKeys(secret: string) {
  const derive = (label: string) => Buffer.from(hkdfSync("sha256", secret, "", label, 32));
  const hashKey = derive("comment-reply-address-hash");
  const sealKey = derive("comment-reply-address-seal");
  const tokenKey = derive("comment-reply-unsubscribe");
  const sign = (payload: string) => createHmac("sha256", tokenKey).update(payload).digest("base64url");

  return {
    hash(email: string): string {
      return createHmac("sha256", hashKey).update(subscriberAddressKey(email)).digest("base64url");
    },

    /** `v1.<iv>.<tag>.<ciphertext>`, base64url, a fresh IV each time. */
    seal(email: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", sealKey, iv);
      const sealed = Buffer.concat([cipher.update(email.trim(), "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
    },

    /** The address, or undefined when the text was not sealed with this secret (it changed) or was altered. */
    unseal(text: string): string | undefined {
      const [version, iv, tag, sealed] = text.split(".");
      if (version !== "v1" || !iv || !tag || sealed === undefined) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", sealKey, Buffer.from(iv, "base64url"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return undefined;
      }
    },

    unsubscribeToken(commentId: string): string {
      const payload = `r.${commentId}`;
      return `${payload}.${sign(payload)}`;
    },

    /** The comment an unsubscribe token names; undefined for a forged or damaged one. */
    readUnsubscribeToken(token: string): string | undefined {
      if (token.length > TOKEN_MAX) return undefined;
      const fields = token.split(".");
      if (fields.length !== 3 || fields[0] !== "r" || !ID_PATTERN.test(fields[1]!)) return undefined;
      const given = Buffer.from(fields[2]!);
      const expected = Buffer.from(sign(`r.${fields[1]}`));
      return given.length === expected.length && timingSafeEqual(given, expected) ? fields[1] : undefined;
    },
  };
}

export type AddressKeys = ReturnType<typeof createAddressKeys>;
