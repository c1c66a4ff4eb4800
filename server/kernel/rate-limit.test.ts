import { describe, expect, it } from "vitest";
import { networkOf } from "./rate-limit.ts";

describe("rate limits", () => {
  it("count and keep only the network of an address", () => {
    expect(networkOf("203.0.113.57")).toBe("203.0.113.0/24");
    expect(networkOf("::ffff:198.51.100.7")).toBe("198.51.100.0/24");
    expect(networkOf("2001:db8:85a3:8d3:1319:8a2e:370:7348")).toBe("2001:db8:85a3::/48");
  });
});
