import { afterEach, beforeEach } from "vitest";
import type { DatabaseHandle, Dialect } from "../../server/kernel/db/connect.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase } from "./databases.ts";
import { createManualClock, TEST_PASSWORD_COST } from "./factories.ts";

export const TEST_COMMENT_IP_SALT = "test salt for comment address hashes";

export interface TestBlog {
  handle: DatabaseHandle;
  services: Services;
  clock: ReturnType<typeof createManualClock>;
}

/**
 * Gives every test in the calling suite a fresh database of the dialect, the services over
 * it and a clock the test moves by hand; skips the suite when that database is unavailable.
 */
export function useTestBlog({ dialect, skip }: { dialect: Dialect; skip: boolean }): TestBlog {
  const blog = {} as TestBlog;
  beforeEach(async (context) => {
    if (skip) context.skip();
    const handle = await createTestDatabase(dialect);
    const clock = createManualClock();
    const services = createServices({
      db: handle.db,
      dialect,
      now: clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    Object.assign(blog, { handle, clock, services });
  });
  afterEach(async () => {
    await blog.handle?.close();
  });
  return blog;
}
