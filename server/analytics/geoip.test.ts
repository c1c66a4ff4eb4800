import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countryDatabase } from "../../tests/support/geoip-fixture.ts";
import { openCountryLookup } from "./geoip.ts";

describe("the country of an address from the owner's GeoIP file", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "blog-geoip-"));
  const file = path.join(directory, "country.mmdb");
  writeFileSync(file, countryDatabase("203.0.113.0/24", "NZ"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("names the country of an address in the file, and none for another or a malformed one", async () => {
    const countryOf = await openCountryLookup(file);
    expect(countryOf("203.0.113.7")).toBe("NZ");
    expect(countryOf("::ffff:203.0.113.200")).toBe("NZ");
    expect(countryOf("198.51.100.1")).toBeNull();
    expect(countryOf("not an address")).toBeNull();
    expect(countryOf("2001:db8::1")).toBeNull();
  });
});
