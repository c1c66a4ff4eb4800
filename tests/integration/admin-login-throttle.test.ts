import * as OTPAuth from "otpauth";
import { beforeEach, describe, expect, it } from "vitest";
import { DatabaseUnavailableError, isDomainError, RateLimitedError } from "#domain/errors.ts";
import { action as loginCodeAction } from "../../app/routes/site/login-code.tsx";
import { action as loginAction } from "../../app/routes/site/login.tsx";
import type { Services } from "../../server/composition.ts";
import { createLoginThrottle, LOGIN_THROTTLE_RULES, type LoginThrottle } from "../../server/accounts/login-throttle.ts";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, routeArgs, settle } from "../support/route-context.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
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
      secret: TEST_COMMENT_IP_SALT,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    await blog.services.auth.createAdmin("writer@example.com", PASSWORD);
  });

  /** One attempt's outcome: "ok", "invalid" or "locked" (with the seconds to wait). */
  async function attempt(email: string, password: string, clientAddress = "198.51.100.7", knownDevice?: string) {
    try {
      await throttle.guardSignIn({ email, clientAddress, knownDevice }, () =>
        blog.services.auth.signIn(email, password),
      );
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

  it("holds a known browser by neither the email's lock nor its address's, only by its own budget", async () => {
    const shared = "192.0.2.60";
    for (let index = 1; index <= LOGIN_THROTTLE_RULES.address.maxFailures; index += 1) {
      await attempt(`person${index}@example.com`, "guess", shared);
    }
    for (let index = 1; index <= LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
      await attempt("writer@example.com", "guess", `192.0.2.${100 + index}`);
    }
    expect(await attempt("writer@example.com", PASSWORD, shared, "owners-device-nonce")).toBe("ok");
    // A fresh browser is told when both locks have lifted.
    expect(await attempt("writer@example.com", PASSWORD, shared)).toBe("locked 3600s");
    expect(await attempt("writer@example.com", PASSWORD, "192.0.2.61")).toBe("locked 900s");

    const outcomes = [];
    for (let index = 0; index < LOGIN_THROTTLE_RULES.device.maxFailures; index += 1) {
      outcomes.push(await attempt("writer@example.com", "wrong password", shared, "owners-device-nonce"));
    }
    expect(outcomes).toEqual(["invalid", "invalid", "invalid", "invalid", "locked 900s"]);
  });

  it("shares the count between app servers using the same database", async () => {
    const otherServer = createLoginThrottle({
      db: blog.handle.db,
      now: blog.clock.now,
      secret: TEST_COMMENT_IP_SALT,
      sleep: async () => {},
    });
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

/** A browser driving the real sign-in pages: its own cookies and client address. */
function browserOn(services: Services, clientAddress: string) {
  const cookies = new Map<string, string>();
  const remember = (headers: Headers) => {
    for (const setCookie of headers.getSetCookie()) {
      const [pair = ""] = setCookie.split(";");
      const [name = "", value = ""] = pair.split(/=(.*)/s);
      if (value === "" || /Max-Age=0\b/.test(setCookie)) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  async function post(action: (args: never) => unknown, path: string, fields: Record<string, string>) {
    const request = new Request(`http://blog.test${path}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    const { context } = createRouteTestContext(services, null, clientAddress);
    const outcome = await settle(() => action(routeArgs(request, context) as never));
    remember(outcome.headers);
    const { errors } = (outcome.body ?? {}) as { errors?: { code?: string } };
    // "302 /admin", "401", or "429 900s: Too many wrong codes…"
    if (outcome.status === 302) return `302 ${outcome.headers.get("Location")}`;
    const retryAfter = outcome.headers.get("Retry-After");
    return retryAfter ? `${outcome.status} ${retryAfter}s: ${errors?.code}` : String(outcome.status);
  }
  return {
    signIn: (password: string) => post(loginAction, "/login", { email: "owner@example.com", password }),
    enterCode: (code: string) => post(loginCodeAction, "/login/code", { code }),
  };
}

describe.each(testDialects())("guessing two-factor codes on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  let services: Services;
  let secret: string;
  let recoveryCodes: string[];
  let strangers = 0;

  beforeEach(async () => {
    // The real throttle, answering at once rather than slowly.
    services = {
      ...blog.services,
      loginThrottle: createLoginThrottle({
        db: blog.handle.db,
        now: blog.clock.now,
        secret: TEST_COMMENT_IP_SALT,
        sleep: async () => {},
      }),
    };
    const account = await blog.services.auth.createAdmin("owner@example.com", PASSWORD);
    await blog.services.twoFactor.startEnrolment(account.id);
    secret = (await blog.services.twoFactor.pendingEnrolment(account.id))!.secret;
    recoveryCodes = await blog.services.twoFactor.confirmEnrolment(account.id, currentCode());
    blog.clock.advance(30_000);
  });

  function currentCode(): string {
    return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
      timestamp: blog.clock.now().getTime(),
    });
  }

  /** A fresh browser from a new address (so no address limit is reached), password right, then `code`. */
  async function stranger(code: string) {
    strangers += 1;
    const browser = browserOn(services, `203.0.113.${strangers % 250}`);
    expect(await browser.signIn(PASSWORD)).toBe("302 /login/code?redirectTo=%2Fadmin");
    return browser.enterCode(code);
  }

  it("locks the account's code step after 5 wrong codes, though the right password came before each", async () => {
    const outcomes = [];
    for (let index = 0; index < LOGIN_THROTTLE_RULES.code.maxFailures; index += 1) {
      outcomes.push(await stranger("000000"));
    }
    expect(outcomes).toEqual([
      "401",
      "401",
      "401",
      "401",
      "429 900s: Too many failed sign-in attempts. Please try again in 15 minutes.",
    ]);
    blog.clock.advance(60_000);
    expect(await stranger(currentCode())).toBe(
      "429 840s: Too many failed sign-in attempts. Please try again in 14 minutes.",
    );
    blog.clock.advance(14 * MINUTE);
    expect(await stranger(currentCode())).toBe("302 /admin");
  });

  it("counts wrong recovery codes too, and a right code starts the count again", async () => {
    for (let index = 1; index < LOGIN_THROTTLE_RULES.code.maxFailures; index += 1) {
      expect(await stranger("dead-beef-dead-beef")).toBe("401");
    }
    expect(await stranger(recoveryCodes[0]!)).toBe("302 /admin");
    for (let index = 1; index < LOGIN_THROTTLE_RULES.code.maxFailures; index += 1) {
      expect(await stranger("dead-beef-dead-beef")).toBe("401");
    }
    expect(await stranger("dead-beef-dead-beef")).toMatch(/^429 900s/);
    expect(await stranger(recoveryCodes[1]!)).toMatch(/^429 900s/);
  });

  it("locks the code step for a day after 20 wrong codes in a day", async () => {
    const { maxFailures } = LOGIN_THROTTLE_RULES.code;
    for (let round = 1; round < LOGIN_THROTTLE_RULES.codeDaily.maxFailures / maxFailures; round += 1) {
      for (let index = 1; index < maxFailures; index += 1) expect(await stranger("000000")).toBe("401");
      expect(await stranger("000000")).toMatch(/^429 900s/);
      blog.clock.advance(LOGIN_THROTTLE_RULES.code.lockMs);
    }
    for (let index = 1; index < maxFailures; index += 1) expect(await stranger("000000")).toBe("401");
    expect(await stranger("000000")).toBe(
      "429 86400s: Too many failed sign-in attempts. Please try again in 24 hours.",
    );
    blog.clock.advance(23 * HOUR);
    expect(await stranger(currentCode())).toBe(
      "429 3600s: Too many failed sign-in attempts. Please try again in 60 minutes.",
    );
    blog.clock.advance(HOUR);
    expect(await stranger(currentCode())).toBe("302 /admin");
  });

  it("lets the owner's known browser finish with its code while the account's code step is locked", async () => {
    const owners = browserOn(services, "198.51.100.9");
    expect(await owners.signIn(PASSWORD)).toMatch(/^302 \/login\/code/);
    expect(await owners.enterCode(currentCode())).toBe("302 /admin");
    blog.clock.advance(30_000);

    for (let index = 0; index < LOGIN_THROTTLE_RULES.code.maxFailures; index += 1) await stranger("000000");
    expect(await stranger(currentCode())).toMatch(/^429/);
    expect(await owners.signIn(PASSWORD)).toMatch(/^302 \/login\/code/);
    expect(await owners.enterCode(currentCode())).toBe("302 /admin");

    // Its own wrong codes count on its own budget, which the right password does not reset either.
    const outcomes = [];
    for (let index = 0; index < LOGIN_THROTTLE_RULES.code.maxFailures; index += 1) {
      await owners.signIn(PASSWORD);
      outcomes.push(await owners.enterCode("000000"));
    }
    expect(outcomes.at(-1)).toMatch(/^429 900s/);
  });

  it("lifts the code lock when the password is reset", async () => {
    for (let index = 0; index < LOGIN_THROTTLE_RULES.code.maxFailures; index += 1) await stranger("000000");
    await blog.services.auth.resetPassword("owner@example.com", PASSWORD);
    expect(await stranger(currentCode())).toBe("302 /admin");
  });
});
