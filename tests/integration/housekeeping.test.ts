import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/connect.ts";
import { blockKey, findRateLimit, recordHit } from "../../server/repositories/rate-limits.ts";
import { SESSION_IDLE_MS } from "../../server/services/auth.ts";
import { createServices, type Services } from "../../server/services/index.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createManualClock, TEST_PASSWORD_COST } from "../support/factories.ts";

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDialects())("housekeeping on $dialect", ({ dialect, skip }) => {
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

  it("purges expired sessions and finished rate limits, and keeps live ones", async () => {
    await services.auth.createAdmin("owner@example.com", "a long enough password");
    const stale = await services.auth.signIn("owner@example.com", "a long enough password");
    const at = () => clock.now().toISOString();
    await recordHit(handle.db, "old-window", at(), new Date(0).toISOString());
    await recordHit(handle.db, "still-locked", at(), new Date(0).toISOString());
    await blockKey(handle.db, "still-locked", new Date(clock.now().getTime() + 30 * DAY).toISOString());

    clock.advance(SESSION_IDLE_MS + DAY);
    const fresh = await services.auth.signIn("owner@example.com", "a long enough password");
    await recordHit(handle.db, "current-window", at(), new Date(clock.now().getTime() - DAY).toISOString());

    expect(await services.housekeeping.purgeExpired()).toEqual({ sessions: 1, rateLimits: 1 });
    expect(await services.auth.getSessionUser(stale.token)).toBeUndefined();
    expect(await services.auth.getSessionUser(fresh.token)).toBeDefined();
    expect(await findRateLimit(handle.db, "old-window")).toBeUndefined();
    expect(await findRateLimit(handle.db, "still-locked")).toBeDefined();
    expect(await findRateLimit(handle.db, "current-window")).toBeDefined();
  });
});
