import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Seals and opens secrets the blog must use again (to sign or verify an HMAC, so a hash would not
 * do) with AES-256-GCM under a key derived with HKDF from the server's secret and `label`, which
 * every app server and the CLI read alike: a copy of the database alone opens nothing, and a
 * secret sealed for one purpose does not open under another's label.
 */
export function createSecretBox(serverSecret: string, label: string) {
  const key = Buffer.from(hkdfSync("sha256", serverSecret, "", label, 32));
  return {
    /** `v1.<iv, tag and ciphertext, base64url>`, a fresh IV each time. */
    seal(secret: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
    },
    /** The secret, or undefined when it was sealed under another server secret (or tampered with). */
    open(stored: string): string | undefined {
      if (!stored.startsWith("v1.")) return undefined;
      const bytes = Buffer.from(stored.slice(3), "base64url");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
      } catch {
        return undefined;
      }
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
