import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { RESET_REQUESTED_MESSAGE } from "#domain/account.ts";
import { isDomainError, RateLimitedError } from "#domain/errors.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { hashToken } from "../../server/kernel/tokens.ts";
import { action as forgotAction } from "../../app/routes/site/forgot-password.tsx";
import { action as resetAction, loader as resetLoader } from "../../app/routes/site/reset-password.tsx";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, postForm, routeArgs, settle } from "../support/route-context.ts";
import { TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const PASSWORD = "a long enough password";
const NEW_PASSWORD = "a brand new password";
const HOUR = 60 * 60 * 1000;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof RateLimitedError) return "RATE_LIMITED";
    if (isDomainError(error)) return error.code;
    throw error;
  }
}

describe.each(testDialects())("password reset by email on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  let services: Services;

  /** Services with email on, so the reset link is queued in the outbox. */
  async function setUp() {
    services = createServices({
      db: blog.handle.db,
      dialect,
      now: blog.clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      siteUrl: "https://blog.example",
      emailOn: true,
    });
    await services.auth.createAdmin("writer@example.com", PASSWORD);
  }

  /** The queued reset emails: to whom, and the token each link carries. */
  async function resetEmails() {
    const rows = await blog.handle.db
      .selectFrom("email_deliveries")
      .innerJoin("email_sends", "email_sends.id", "email_deliveries.send_id")
      .select(["email_deliveries.to_address", "email_sends.text"])
      .orderBy("email_deliveries.id")
      .execute();
    return rows.map((row) => ({
      to: row.to_address,
      token: decodeURIComponent(/reset-password\?token=([\w%-]+)/.exec(row.text)?.[1] ?? ""),
    }));
  }

  async function ask(email: string, clientAddress = "203.0.113.7") {
    const { context } = createRouteTestContext(services, null, clientAddress);
    return settle(() => forgotAction(routeArgs(postForm("http://blog.example/forgot-password", { email }), context)));
  }

  async function choose(token: string, password: string, confirmPassword = password) {
    const { context } = createRouteTestContext(services, null);
    const request = postForm("http://blog.example/reset-password", { token, password, confirmPassword });
    return settle(() => resetAction(routeArgs(request, context)));
  }

  it("answers the same for an unknown address and emails only an account's address", async () => {
    await setUp();
    const known = await ask("writer@example.com");
    const unknown = await ask("nobody@example.com");
    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
    expect(JSON.stringify(known.body)).not.toContain("writer@example.com");
    expect((await resetEmails()).map((email) => email.to)).toEqual(["writer@example.com"]);
    const answer = await ask("not an address");
    expect(answer).toMatchObject({ status: 400, body: { errors: { email: "Please enter a valid email address" } } });
    // The page says the one sentence, whoever asked.
    expect(RESET_REQUESTED_MESSAGE).toBe(
      "If an account uses that address, we have sent it a link to choose a new password.",
    );
  });

  it("keeps only the token's hash and lets the link set a password once, signing out every session", async () => {
    await setUp();
    const { token: session } = await services.auth.signIn("writer@example.com", PASSWORD);
    await ask("writer@example.com");
    await ask("writer@example.com");
    const [older, newer] = await resetEmails();
    const stored = await blog.handle.db.selectFrom("password_resets").select("token_hash").execute();
    expect(stored.map((row) => row.token_hash).sort()).toEqual(
      [hashToken(older!.token), hashToken(newer!.token)].sort(),
    );

    const mismatch = await choose(newer!.token, NEW_PASSWORD, "something else entirely");
    expect(mismatch).toMatchObject({
      status: 400,
      body: { errors: { confirmPassword: "The passwords do not match" } },
    });
    const short = await choose(newer!.token, "short");
    expect(short).toMatchObject({
      status: 400,
      body: { errors: { password: "Password must be at least 10 characters" } },
    });

    expect(await choose(newer!.token, NEW_PASSWORD)).toMatchObject({ status: 302 });
    expect(await codeOf(services.auth.signIn("writer@example.com", PASSWORD))).toBe("INVALID_CREDENTIALS");
    expect(await codeOf(services.auth.signIn("writer@example.com", NEW_PASSWORD))).toBe("ok");
    expect(await services.auth.getSessionUser(session)).toBeUndefined();

    // Used once; and the older link died with it.
    const again = await choose(newer!.token, "yet another password");
    expect(again).toMatchObject({
      status: 410,
      body: { formError: "This link has expired or has already been used. Ask for a new one." },
    });
    expect(await choose(older!.token, "yet another password")).toMatchObject({ status: 410 });
    expect(await blog.handle.db.selectFrom("password_resets").selectAll().execute()).toEqual([]);
    const entries = await blog.handle.db.selectFrom("audit_log").select(["action", "detail"]).execute();
    expect(entries).toContainEqual({
      action: "password-changed",
      detail: "writer@example.com, by an emailed reset link",
    });
  });

  it("refuses a link after an hour", async () => {
    await setUp();
    await ask("writer@example.com");
    const [email] = await resetEmails();
    blog.clock.advance(HOUR);
    const { context } = createRouteTestContext(services, null);
    const opened = await settle(() =>
      resetLoader(routeArgs(new Request(`http://blog.example/reset-password?token=${email!.token}`), context)),
    );
    expect(opened).toMatchObject({ status: 410, body: { open: false } });
    expect(await choose(email!.token, NEW_PASSWORD)).toMatchObject({ status: 410 });
    expect(await codeOf(services.auth.signIn("writer@example.com", PASSWORD))).toBe("ok");
  });

  it("leaves two-factor sign-in on after a reset", async () => {
    await setUp();
    const account = (await services.auth.signIn("writer@example.com", PASSWORD)).user;
    await services.twoFactor.startEnrolment(account.id);
    const { secret } = (await services.twoFactor.pendingEnrolment(account.id))!;
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
      timestamp: blog.clock.now().getTime(),
    });
    await services.twoFactor.confirmEnrolment(account.id, code);
    await ask("writer@example.com");
    const [email] = await resetEmails();
    await choose(email!.token, NEW_PASSWORD);
    expect((await services.auth.beginSignIn("writer@example.com", NEW_PASSWORD)).kind).toBe("two-factor");
  });

  it("limits requests per address and per network, known address or not", async () => {
    await setUp();
    // Three an hour for one address, from any networks.
    for (let i = 0; i < 3; i += 1) expect((await ask("nobody@example.com", `198.51.${i}.1`)).status).toBe(200);
    const limited = await ask("nobody@example.com", "198.51.9.1");
    expect(limited).toMatchObject({
      status: 429,
      body: { errors: { email: "That is a lot of reset requests. Please wait an hour and try again." } },
    });
    // Ten an hour from one network, whatever the addresses.
    for (let i = 0; i < 10; i += 1) expect((await ask(`someone-${i}@example.com`, `192.0.2.${i}`)).status).toBe(200);
    expect((await ask("writer@example.com", "192.0.2.77")).status).toBe(429);
    expect(await resetEmails()).toEqual([]);
  });
});
