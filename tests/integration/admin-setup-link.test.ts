import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/connect.ts";
import { createServices, type Services } from "../../server/services/index.ts";
import { SETUP_TOKEN_TTL_MS } from "../../server/services/setup.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createManualClock, TEST_PASSWORD_COST } from "../support/factories.ts";

describe.each(testDialects())("the first-admin setup link on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let services: Services;
  let clock: ReturnType<typeof createManualClock>;

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    clock = createManualClock();
    services = createServices({ db: handle.db, dialect, now: clock.now, passwordCost: TEST_PASSWORD_COST });
  });
  afterEach(async () => {
    await handle?.close();
  });

  it("creates the first admin once, who can then sign in, and closes every link", async () => {
    const token = (await services.setup.issueSetupToken())!;
    const otherServersToken = (await services.setup.issueSetupToken())!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await services.setup.checkSetupLink(token)).toBe("open");

    expect(await services.setup.createFirstAdmin(token, "Owner@Example.com", "a long enough password")).toEqual({
      created: true,
      email: "owner@example.com",
    });
    const { user } = await services.auth.signIn("owner@example.com", "a long enough password");
    expect(user.email).toBe("owner@example.com");

    expect(await services.setup.checkSetupLink(token)).toBe("closed");
    expect(await services.setup.checkSetupLink(otherServersToken)).toBe("closed");
    expect(await services.setup.createFirstAdmin(otherServersToken, "second@example.com", "another password")).toEqual({
      created: false,
      state: "closed",
    });
    expect(await handle.db.selectFrom("admins").select("email").execute()).toEqual([{ email: "owner@example.com" }]);
    expect(await services.setup.issueSetupToken()).toBeUndefined();
  });

  it("stores only a hash of the token", async () => {
    const token = (await services.setup.issueSetupToken())!;
    const rows = await handle.db.selectFrom("setup_tokens").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
  });

  it("refuses unknown, empty and expired tokens without creating anyone", async () => {
    const token = (await services.setup.issueSetupToken())!;
    expect(await services.setup.checkSetupLink("")).toBe("invalid");
    expect(await services.setup.checkSetupLink(`${token}x`)).toBe("invalid");
    expect(await services.setup.createFirstAdmin("forged", "owner@example.com", "a long enough password")).toEqual({
      created: false,
      state: "invalid",
    });

    clock.advance(SETUP_TOKEN_TTL_MS + 1000);
    expect(await services.setup.checkSetupLink(token)).toBe("invalid");
    expect(await services.setup.createFirstAdmin(token, "owner@example.com", "a long enough password")).toEqual({
      created: false,
      state: "invalid",
    });
    expect(await services.auth.hasAnyAdmin()).toBe(false);
  });

  it("stops working once an admin exists by any other route (ADMIN_EMAIL or the CLI)", async () => {
    const token = (await services.setup.issueSetupToken())!;
    await services.auth.ensureAdmin("cli@example.com", "a long enough password");
    expect(await services.setup.checkSetupLink(token)).toBe("closed");
    expect(await services.setup.createFirstAdmin(token, "late@example.com", "a long enough password")).toEqual({
      created: false,
      state: "closed",
    });
  });

  it("lets only one of two simultaneous submissions create an admin", async () => {
    const [first, second] = [(await services.setup.issueSetupToken())!, (await services.setup.issueSetupToken())!];
    const results = await Promise.allSettled([
      services.setup.createFirstAdmin(first, "one@example.com", "a long enough password"),
      services.setup.createFirstAdmin(second, "two@example.com", "a long enough password"),
    ]);
    const created = results.filter((result) => result.status === "fulfilled" && result.value.created);
    expect(created).toHaveLength(1);
    expect(await handle.db.selectFrom("admins").select("email").execute()).toHaveLength(1);
  });
});
