import { describe, expect, it } from "vitest";
import { publicOnlyLookup, refuseAddress, refuseAddressForm } from "./public-address.ts";

/** A resolver that answers from a table, as DNS would; a name it lacks does not resolve. */
function resolverOf(table: Record<string, string[]>) {
  return async (hostname: string) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address }));
  };
}

describe("the addresses the blog sends to", () => {
  it.each([
    ["loopback", "http://127.0.0.1:8080/inbox"],
    ["loopback, elsewhere in 127/8", "https://127.3.4.5/inbox"],
    ["loopback written as a number", "http://2130706433/inbox"],
    ["loopback in hexadecimal", "http://0x7f.1/inbox"],
    ["loopback with a trailing dot", "http://127.0.0.1./inbox"],
    ["IPv6 loopback", "http://[::1]/inbox"],
    ["private 10/8", "https://10.1.2.3/inbox"],
    ["private 172.16/12", "https://172.31.255.1/inbox"],
    ["private 192.168/16", "https://192.168.1.10/inbox"],
    ["IPv6 unique local fc00::/7", "https://[fd12:3456::1]/inbox"],
    ["link-local 169.254/16", "http://169.254.10.1/inbox"],
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/"],
    ["IPv6 link-local fe80::/10", "http://[fe80::1]/inbox"],
    ["unspecified 0.0.0.0", "http://0.0.0.0/inbox"],
    ["unspecified 0", "http://0/inbox"],
    ["IPv6 unspecified", "http://[::]/inbox"],
    ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/inbox"],
    ["IPv4-mapped IPv6 in hexadecimal", "http://[::ffff:7f00:1]/inbox"],
    ["IPv4-mapped private address", "http://[::ffff:a00:1]/inbox"],
    ["CGNAT 100.64/10", "https://100.64.0.1/inbox"],
    ["localhost", "http://localhost:3000/inbox"],
    ["localhost with a trailing dot", "http://LocalHost./inbox"],
    ["a name under localhost", "http://inbox.localhost/inbox"],
    ["another scheme", "ftp://social.example/inbox"],
    ["a file", "file:///etc/passwd"],
    ["a user and password", "https://admin:secret@social.example/inbox"],
    ["not a URL", "social.example/inbox"],
  ])("refuses %s (%s) by its form alone", async (_what, address) => {
    expect(refuseAddressForm(address)).toEqual(expect.any(String));
    expect(await refuseAddress(address, resolverOf({}))).toEqual(expect.any(String));
  });

  it.each([
    "https://social.example/users/ada/inbox",
    "https://bücher.example/inbox",
    "http://8.8.8.8/inbox",
    "https://[2606:4700:4700::1111]/inbox",
  ])("takes the public address %s", (address) => {
    expect(refuseAddressForm(address)).toBeUndefined();
  });

  it("refuses a public name that resolves to a private address, any of its addresses", async () => {
    const resolve = resolverOf({
      "social.example": ["93.184.216.34"],
      "rebound.example": ["127.0.0.1"],
      "metadata.example": ["169.254.169.254"],
      "mixed.example": ["93.184.216.34", "10.0.0.7"],
      "mapped.example": ["::ffff:192.168.0.1"],
    });
    expect(await refuseAddress("https://social.example/inbox", resolve)).toBeUndefined();
    expect(await refuseAddress("https://rebound.example/inbox", resolve)).toBe(
      "rebound.example resolves to 127.0.0.1, which is not a public address",
    );
    expect(await refuseAddress("https://metadata.example/inbox", resolve)).toMatch(/169\.254\.169\.254/);
    expect(await refuseAddress("https://mixed.example/inbox", resolve)).toMatch(/10\.0\.0\.7/);
    expect(await refuseAddress("https://mapped.example/inbox", resolve)).toMatch(/::ffff:192\.168\.0\.1/);
  });

  it("leaves a name that does not resolve now to the delivery, which fails on it and is tried again", async () => {
    expect(await refuseAddress("https://gone.example/inbox", resolverOf({}))).toBeUndefined();
  });
});

describe("the lookup a webhook call connects through", () => {
  const resolveThrough = (hostname: string) =>
    new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      publicOnlyLookup()(hostname, { all: true }, (error, address) => resolve({ error, address })),
    );

  it("refuses a name that resolves to this machine where the connection is made, not only before it", async () => {
    const { error } = await resolveThrough("localhost");
    expect(error?.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
  });
});
