import { describe, expect, it } from "vitest";
import { createAddressKeys } from "./sealed-address.ts";

describe("a reader's address as the blog keeps it", () => {
  const keys = createAddressKeys("the server's secret, long enough for a test");

  it("hashes one address the same in any case, and two addresses apart", () => {
    expect(keys.hash("Ada@Example.com")).toBe(keys.hash(" ada@example.COM "));
    expect(keys.hash("ada@example.com")).not.toBe(keys.hash("bea@example.com"));
    expect(keys.hash("ada@example.com")).not.toContain("ada");
  });

  it("seals with a fresh IV each time and unseals only what this secret sealed, unaltered", () => {
    const sealed = keys.seal("Ada@Example.com");
    expect(sealed).not.toBe(keys.seal("Ada@Example.com"));
    expect(sealed.toLowerCase()).not.toContain("ada");
    expect(keys.unseal(sealed)).toBe("Ada@Example.com");
    expect(createAddressKeys("another secret entirely, also long").unseal(sealed)).toBeUndefined();
    const [version, iv, tag, body] = sealed.split(".");
    const flipped = `${body![0] === "A" ? "B" : "A"}${body!.slice(1)}`;
    expect(keys.unseal([version, iv, tag, flipped].join("."))).toBeUndefined();
    expect(keys.unseal("not sealed")).toBeUndefined();
  });

  it("signs unsubscribe links that name their comment and refuses forged ones", () => {
    const token = keys.unsubscribeToken("comment-1");
    expect(keys.readUnsubscribeToken(token)).toBe("comment-1");
    expect(keys.readUnsubscribeToken(token.replace("comment-1", "comment-2"))).toBeUndefined();
    expect(
      keys.readUnsubscribeToken(createAddressKeys("another secret entirely, also long").unsubscribeToken("comment-1")),
    ).toBeUndefined();
    expect(keys.readUnsubscribeToken("r.x".padEnd(200, "x"))).toBeUndefined();
  });
});
