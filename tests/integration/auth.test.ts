import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/connect.ts";
import { isDomainError } from "../../server/errors.ts";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../server/services/auth.ts";
import { createServices, type Services } from "../../server/services/index.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createManualClock, TEST_PASSWORD_COST } from "../support/factories.ts";

const HOUR = 60 * 60 * 1000;

describe.each(testDialects())("admin accounts and sessions on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let services: Services;
  let clock: ReturnType<typeof createManualClock>;

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    clock = createManualClock();
    services = createServices({ db: handle.db, dialect, now: clock.now, passwordCost: TEST_PASSWORD_COST });
    await services.auth.createAdmin("Writer@Example.com", "a long enough password");
  });
  afterEach(async () => {
    await handle?.close();
  });

  it("signs in with the email in any case and describes the user as the spec does", async () => {
    const { token, user } = await services.auth.signIn("writer@EXAMPLE.com", "a long enough password");
    expect(user).toMatchObject({ email: "writer@example.com", username: "writer", isAdmin: true });
    expect(await services.auth.getSessionUser(token)).toEqual(user);
  });

  it("stores only a hash of the password and of the session token", async () => {
    const { token } = await services.auth.signIn("writer@example.com", "a long enough password");
    const admin = await handle.db.selectFrom("admins").selectAll().executeTakeFirstOrThrow();
    expect(admin.password_hash).toMatch(/^scrypt\$/);
    expect(admin.password_hash).not.toContain("a long enough password");
    const session = await handle.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    expect(session.id_hash).not.toBe(token);
  });

  it("gives the same error for a wrong password and an unknown email", async () => {
    for (const [email, password] of [
      ["writer@example.com", "wrong password!"],
      ["nobody@example.com", "a long enough password"],
    ]) {
      await expect(services.auth.signIn(email!, password!)).rejects.toSatisfy((error) =>
        isDomainError(error, "INVALID_CREDENTIALS"),
      );
    }
  });

  it("refuses a second account with the same email in another case", async () => {
    expect(await services.auth.ensureAdmin("WRITER@example.com", "another password")).toBe(false);
    expect(await services.auth.hasAnyAdmin()).toBe(true);
  });

  it("ends sessions after the idle limit and after the absolute limit", async () => {
    const idle = await services.auth.signIn("writer@example.com", "a long enough password");
    clock.advance(SESSION_IDLE_MS + HOUR);
    expect(await services.auth.getSessionUser(idle.token)).toBeUndefined();

    const busy = await services.auth.signIn("writer@example.com", "a long enough password");
    for (let elapsed = 0; elapsed < SESSION_ABSOLUTE_MS; elapsed += SESSION_IDLE_MS / 2) {
      expect(await services.auth.getSessionUser(busy.token)).toBeDefined();
      clock.advance(SESSION_IDLE_MS / 2);
    }
    clock.advance(HOUR);
    expect(await services.auth.getSessionUser(busy.token)).toBeUndefined();
  });

  it("signs out one session, and a password reset signs out all of them", async () => {
    const first = await services.auth.signIn("writer@example.com", "a long enough password");
    const second = await services.auth.signIn("writer@example.com", "a long enough password");
    expect(first.token).not.toBe(second.token);
    await services.auth.signOut(first.token);
    expect(await services.auth.getSessionUser(first.token)).toBeUndefined();
    expect(await services.auth.getSessionUser(second.token)).toBeDefined();

    expect(await services.auth.resetPassword("writer@example.com", "a brand new password")).toBe(true);
    expect(await services.auth.getSessionUser(second.token)).toBeUndefined();
    await expect(services.auth.signIn("writer@example.com", "a long enough password")).rejects.toSatisfy((error) =>
      isDomainError(error, "INVALID_CREDENTIALS"),
    );
    await expect(services.auth.signIn("writer@example.com", "a brand new password")).resolves.toBeDefined();
  });

  it("ignores unknown and empty session tokens", async () => {
    expect(await services.auth.getSessionUser(undefined)).toBeUndefined();
    expect(await services.auth.getSessionUser("forged-token")).toBeUndefined();
  });
});
