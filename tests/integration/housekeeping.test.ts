import { describe, expect, it } from "vitest";
import { blockKey, findRateLimit, recordHit } from "../../server/kernel/repositories/rate-limits.ts";
import { SESSION_IDLE_MS } from "../../server/accounts/auth.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDialects())("housekeeping on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("purges expired sessions and finished rate limits, and keeps live ones", async () => {
    await blog.services.auth.createAdmin("owner@example.com", "a long enough password");
    const stale = await blog.services.auth.signIn("owner@example.com", "a long enough password");
    const at = () => blog.clock.now().toISOString();
    await recordHit(blog.handle.db, "old-window", at(), new Date(0).toISOString());
    await recordHit(blog.handle.db, "still-locked", at(), new Date(0).toISOString());
    await blockKey(blog.handle.db, "still-locked", new Date(blog.clock.now().getTime() + 30 * DAY).toISOString());

    blog.clock.advance(SESSION_IDLE_MS + DAY);
    const fresh = await blog.services.auth.signIn("owner@example.com", "a long enough password");
    await recordHit(blog.handle.db, "current-window", at(), new Date(blog.clock.now().getTime() - DAY).toISOString());

    expect(await blog.services.housekeeping.purgeExpired()).toEqual({
      sessions: 1,
      rateLimits: 1,
      invitations: 0,
      auditEntries: 0,
      webhookDeliveries: 0,
    });
    expect(await blog.services.auth.getSessionUser(stale.token)).toBeUndefined();
    expect(await blog.services.auth.getSessionUser(fresh.token)).toBeDefined();
    expect(await findRateLimit(blog.handle.db, "old-window")).toBeUndefined();
    expect(await findRateLimit(blog.handle.db, "still-locked")).toBeDefined();
    expect(await findRateLimit(blog.handle.db, "current-window")).toBeDefined();
  });
});
