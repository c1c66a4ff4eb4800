import { beforeEach, describe, expect, it } from "vitest";
import { DatabaseUnavailableError, isDomainError, RateLimitedError } from "#domain/errors.ts";
import { createLoginThrottle, LOGIN_THROTTLE_RULES, type LoginThrottle } from "../../server/services/login-throttle.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

const MINUTE = 60 * 1000;
const PASSWORD = "a long enough password";

describe.each(testDialects())("sign-in throttling on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  let throttle: LoginThrottle;
  let delays: number[];

  beforeEach(async () => {
    delays = [];
    throttle = createLoginThrottle({
      db: blog.handle.db,
      now: blog.clock.now,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    await blog.services.auth.createAdmin("writer@example.com", PASSWORD);
  });

  /** One attempt's outcome: "ok", "invalid" or "locked" (with the seconds to wait). */
  async function attempt(email: string, password: string, clientAddress = "198.51.100.7") {
    try {
      await throttle.guardSignIn({ email, clientAddress }, () => blog.services.auth.signIn(email, password));
      return "ok";
    } catch (error) {
      if (error instanceof RateLimitedError) return `locked ${error.retryAfterSeconds}s`;
      if (isDomainError(error, "INVALID_CREDENTIALS")) return "invalid";
      throw error;
    }
  }

  it("slows repeated failures for one email, then locks it for 15 minutes, even for the right password", async () => {
    const outcomes = [];
    for (let index = 0; index < LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
      outcomes.push(await attempt("Writer@Example.com", "wrong password"));
    }
    expect(outcomes).toEqual(["invalid", "invalid", "invalid", "invalid", "locked 900s"]);
    expect(delays).toEqual([1000, 2000]);

    expect(await attempt("writer@example.com", PASSWORD)).toBe("locked 900s");
    blog.clock.advance(10 * MINUTE);
    expect(await attempt("writer@example.com", PASSWORD)).toBe("locked 300s");
    blog.clock.advance(5 * MINUTE + 1000);
    expect(await attempt("writer@example.com", PASSWORD)).toBe("ok");
  });

  it("counts failures from every address against the email, so rotating addresses does not help", async () => {
    for (let index = 1; index < LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
      expect(await attempt("writer@example.com", "wrong password", `203.0.113.${index}`)).toBe("invalid");
    }
    expect(await attempt("writer@example.com", "wrong password", "203.0.113.99")).toBe("locked 900s");
  });

  it("treats an unknown email exactly like a wrong password", async () => {
    for (let index = 1; index < LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
      expect(await attempt("nobody@example.com", "whatever it is")).toBe("invalid");
    }
    expect(await attempt("nobody@example.com", "whatever it is")).toBe("locked 900s");
    expect(delays).toEqual([1000, 2000]);
  });

  it("starts a fresh count once the window has passed", async () => {
    for (let index = 1; index < LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
      expect(await attempt("writer@example.com", "wrong password")).toBe("invalid");
    }
    blog.clock.advance(LOGIN_THROTTLE_RULES.email.windowMs + 1000);
    expect(await attempt("writer@example.com", "wrong password")).toBe("invalid");
    expect(await attempt("writer@example.com", PASSWORD)).toBe("ok");
  });

  it("does not count successes, and a success clears the email's failures", async () => {
    for (let round = 0; round < 3; round += 1) {
      for (let index = 1; index < LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
        expect(await attempt("writer@example.com", "wrong password")).toBe("invalid");
      }
      expect(await attempt("writer@example.com", PASSWORD)).toBe("ok");
    }
    for (let index = 0; index < 10; index += 1) expect(await attempt("writer@example.com", PASSWORD)).toBe("ok");
  });

  it("locks one address that tries many emails for an hour, leaving other addresses alone", async () => {
    const spraying = "192.0.2.50";
    const outcomes = [];
    for (let index = 1; index <= LOGIN_THROTTLE_RULES.address.maxFailures; index += 1) {
      outcomes.push(await attempt(`person${index}@example.com`, "guess", spraying));
    }
    expect(outcomes.slice(0, -1).every((outcome) => outcome === "invalid")).toBe(true);
    expect(outcomes.at(-1)).toBe("locked 3600s");
    expect(delays.length).toBe(LOGIN_THROTTLE_RULES.address.maxFailures - 1 - LOGIN_THROTTLE_RULES.address.slowAfter);
    expect(Math.max(...delays)).toBe(5000);

    expect(await attempt("writer@example.com", PASSWORD, spraying)).toBe("locked 3600s");
    expect(await attempt("writer@example.com", PASSWORD, "192.0.2.51")).toBe("ok");
  });

  it("shares the count between app servers using the same database", async () => {
    const otherServer = createLoginThrottle({ db: blog.handle.db, now: blog.clock.now, sleep: async () => {} });
    for (let index = 1; index < LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
      expect(await attempt("writer@example.com", "wrong password")).toBe("invalid");
    }
    await expect(
      otherServer.guardSignIn({ email: "writer@example.com", clientAddress: "198.51.100.8" }, () =>
        blog.services.auth.signIn("writer@example.com", "wrong password"),
      ),
    ).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("passes other failures through without counting them", async () => {
    const broken = () => Promise.reject(new DatabaseUnavailableError());
    for (let index = 0; index < 10; index += 1) {
      await expect(
        throttle.guardSignIn({ email: "writer@example.com", clientAddress: "198.51.100.7" }, broken),
      ).rejects.toSatisfy((error) => isDomainError(error, "DATABASE_UNAVAILABLE"));
    }
    expect(await attempt("writer@example.com", PASSWORD)).toBe("ok");
  });

  it("lifts the lock when the password is reset", async () => {
    for (let index = 0; index < LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
      await attempt("writer@example.com", "wrong password");
    }
    expect(await attempt("writer@example.com", PASSWORD)).toMatch(/^locked/);
    await blog.services.auth.resetPassword("writer@example.com", "a brand new password");
    expect(await attempt("writer@example.com", "a brand new password")).toBe("ok");
  });
});
