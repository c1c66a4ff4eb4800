import { describe, expect, it } from "vitest";
import { createCredentials, createSecretBox, hashCredential } from "./credentials.ts";

describe("app key credentials", () => {
  it("are in the shapes Ghost's clients check before sending", () => {
    const credentials = createCredentials();
    expect(`${credentials.id}:${credentials.adminSecret}`).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    expect(credentials.contentKey).toMatch(/^[0-9a-f]{26}$/);
    expect(hashCredential(credentials.token)).not.toContain(credentials.token);
  });

  it("seal an Admin API secret that only the same server secret opens", () => {
    const box = createSecretBox("the server's secret, long enough");
    const sealed = box.seal("ab".repeat(32));
    expect(sealed).not.toContain("abab");
    expect(box.open(sealed)).toBe("ab".repeat(32));
    expect(createSecretBox("another server's secret").open(sealed)).toBeUndefined();
    expect(box.open(`${sealed.slice(0, -2)}AA`)).toBeUndefined();
  });
});
