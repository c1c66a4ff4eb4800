import type { CountryResponse } from "maxmind";

/**
 * The country of an address from the owner's GeoLite2 or DB-IP country file (GEOIP_DB): only its
 * ISO code is kept, the address never is. Loaded once at boot, and only when the file is given.
 */
export async function openCountryLookup(file: string): Promise<(address: string) => string | null> {
  const { open } = await import("maxmind");
  const reader = await open<CountryResponse>(file);
  return (address) => {
    // Express gives an IPv4 client on a dual-stack socket as ::ffff:a.b.c.d.
    const plain = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
    try {
      return reader.get(plain)?.country?.iso_code ?? null;
    } catch {
      return null;
    }
  };
}
