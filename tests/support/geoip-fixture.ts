/**
 * A tiny MaxMind DB (.mmdb) country file written by hand, so GEOIP_DB is tested without
 * downloading GeoLite2: one IPv4 network, mapped to `{ country: { iso_code } }`. The format:
 * a binary search tree of 24-bit records, 16 zero bytes, the data section, then a marker and
 * the metadata map (MaxMind DB File Format Specification 2.0).
 */

/** A data-section value: a UTF-8 string, a map, a uint16 or uint32, or an array of strings. */
type Value =
  string | { [key: string]: Value } | { uint16: number } | { uint32: number } | { uint64: number } | string[];

function control(type: number, size: number): Buffer {
  // Types above 7 are "extended": type 0 in the control byte, the type less 7 in the next.
  return type <= 7 ? Buffer.from([(type << 5) | size]) : Buffer.from([size, type - 7]);
}

function unsigned(type: number, value: number): Buffer {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

function encode(value: Value): Buffer {
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  if ("uint16" in value && typeof value.uint16 === "number") return unsigned(5, value.uint16);
  if ("uint32" in value && typeof value.uint32 === "number") return unsigned(6, value.uint32);
  if ("uint64" in value && typeof value.uint64 === "number") return unsigned(9, value.uint64);
  const entries = Object.entries(value as { [key: string]: Value });
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([key, item]) => [encode(key), encode(item)])]);
}

function record(value: number): Buffer {
  return Buffer.from([(value >> 16) & 255, (value >> 8) & 255, value & 255]);
}

/** An IPv4 country database holding `network` (a.b.c.d/prefix) as `isoCode`, every other address unknown. */
export function countryDatabase(network: string, isoCode: string): Buffer {
  const [address = "", prefix = "32"] = network.split("/");
  const bits = address
    .split(".")
    .map((octet) => Number(octet).toString(2).padStart(8, "0"))
    .join("");
  const depth = Number(prefix);
  const nodeCount = depth;
  const empty = nodeCount;
  const data = nodeCount + 16;
  const nodes = Array.from({ length: depth }, (_, index) => {
    const next = index + 1 < depth ? index + 1 : data;
    return bits[index] === "0"
      ? Buffer.concat([record(next), record(empty)])
      : Buffer.concat([record(empty), record(next)]);
  });
  const metadata = encode({
    node_count: { uint32: nodeCount },
    record_size: { uint16: 24 },
    ip_version: { uint16: 4 },
    database_type: "Inkwell-Test-Country",
    languages: ["en"],
    binary_format_major_version: { uint16: 2 },
    binary_format_minor_version: { uint16: 0 },
    build_epoch: { uint64: 1_700_000_000 },
    description: { en: "A test file" },
  });
  return Buffer.concat([
    ...nodes,
    Buffer.alloc(16),
    encode({ country: { iso_code: isoCode } }),
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from("MaxMind.com"),
    metadata,
  ]);
}
