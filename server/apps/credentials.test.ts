import { describe, expect, it } from "vitest";
import { createCredentials, createSecretBox, hashCredential, networkOf } from "./credentials.ts";

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

  it("keep only the network of an address", () => {
    expect(networkOf("203.0.113.57")).toBe("203.0.113.0/24");
    expect(networkOf("::ffff:198.51.100.7")).toBe("198.51.100.0/24");
    expect(networkOf("2001:db8:85a3:8d3:1319:8a2e:370:7348")).toBe("2001:db8:85a3::/48");
  });
});
