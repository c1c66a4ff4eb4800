import { describe, expect, it } from "vitest";
import { hashPassword, OWASP_SCRYPT_COST, verifyPassword } from "./passwords.ts";

const cheap = { N: 1024, r: 8, p: 1 };

describe("password hashing", () => {
  it("verifies the right password and rejects others", async () => {
    const hash = await hashPassword("correct horse", cheap);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horsE", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("salts every hash and records its cost", async () => {
    const [first, second] = await Promise.all([hashPassword("same", cheap), hashPassword("same", cheap)]);
    expect(first).not.toBe(second);
    expect(first.split("$").slice(0, 4)).toEqual(["scrypt", "1024", "8", "1"]);
  });

  it("rejects malformed stored hashes instead of throwing", async () => {
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$1$2$3$4$5")).toBe(false);
  });

  it("defaults to OWASP's scrypt parameters", async () => {
    expect(OWASP_SCRYPT_COST).toEqual({ N: 131072, r: 8, p: 1 });
    const hash = await hashPassword("default cost");
    expect(hash.startsWith("scrypt$131072$8$1$")).toBe(true);
  });
});
