// Which addresses the blog sends to (docs/decisions/0015-fediverse.md, "Private addresses"):
// an inbox named by another server must not make the blog POST into its own network.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isValidPublicIPv4Address, isValidPublicIPv6Address } from "@fedify/vocab-runtime";

/** Every address a name resolves to, as `node:dns` `lookup(…, { all: true })` gives them. */
export type ResolveName = (hostname: string) => Promise<readonly { address: string }[]>;

const resolveWithSystem: ResolveName = (hostname) => lookup(hostname, { all: true });

/** The URL's host without IPv6 brackets or a trailing dot, in lower case. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase()
    .replace(/\.+$/, "");
}

/**
 * Fedify's own list of what is not public (the one its document loader refuses): loopback,
 * private, link-local with the cloud metadata address, unspecified, shared (CGNAT 100.64/10),
 * documentation, multicast and reserved ranges, and every IPv4 address inside IPv6 (::/16).
 */
function isPublicIp(address: string): boolean {
  const family = isIP(address);
  return (family === 4 && isValidPublicIPv4Address(address)) || (family === 6 && isValidPublicIPv6Address(address));
}

/**
 * Why the blog will not send to `address`, read from its form alone (no DNS: what a name
 * resolves to is checked when sending, `refuseAddress`); undefined when it may. Refused: anything
 * but http(s), a user or password in it (the blog has none to give and a signed request must not
 * carry one), this machine's names (`localhost` and names under it) and IP addresses that are not public.
 */
export function refuseAddressForm(address: string): string | undefined {
  if (!URL.canParse(address)) return "it is not a URL";
  const url = new URL(address);
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} is neither http: nor https:`;
  if (url.username !== "" || url.password !== "") return "it carries a user name or password";
  const host = hostOf(url);
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} names this machine`;
  if (isIP(host) !== 0 && !isPublicIp(host)) return `${host} is not a public address`;
  return undefined;
}

/**
 * `refuseAddressForm`, then every address the name resolves to now: a public name pointing at
 * a private address is refused. A name that does not resolve is left to the delivery, which
 * fails on the same lookup and is tried again later (each try checked again).
 */
export async function refuseAddress(
  address: string,
  resolve: ResolveName = resolveWithSystem,
): Promise<string | undefined> {
  const refusal = refuseAddressForm(address);
  if (refusal !== undefined) return refusal;
  const host = hostOf(new URL(address));
  if (isIP(host) !== 0) return undefined;
  let addresses: readonly { address: string }[];
  try {
    addresses = await resolve(host);
  } catch {
    return undefined;
  }
  const inside = addresses.find((resolved) => !isPublicIp(resolved.address));
  return inside && `${host} resolves to ${inside.address}, which is not a public address`;
}

/** The `lookup` of a node:http(s) request (node:net's `LookupFunction`). */
export type ConnectLookup = (
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
) => void;

/**
 * A `lookup` for node:http(s) requests that resolves the name once and refuses it when any
 * address is not public: the address connected to is the one checked, so a name that answers
 * a public address to a check and a private one to the connection (DNS rebinding) gains nothing.
 * An IP address in the URL is never looked up: `refuseAddressForm` is for those.
 */
export function publicOnlyLookup(): ConnectLookup {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family === undefined ? 0 : Number(options.family) || 0 }).then(
      (addresses) => {
        const inside = addresses.find((resolved) => !isPublicIp(resolved.address));
        if (inside || addresses.length === 0) {
          const reason = inside
            ? `${hostname} resolves to ${inside.address}, which is not a public address`
            : `${hostname} resolves to no address`;
          callback(Object.assign(new Error(reason), { code: "EPRIVATEADDRESS" }), "");
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(error, ""),
    );
  };
}
