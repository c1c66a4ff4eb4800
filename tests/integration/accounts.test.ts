import * as OTPAuth from "otpauth";
import { describe, expect, it, vi } from "vitest";
import { isDomainError, RateLimitedError } from "#domain/errors.ts";
import { createServices } from "../../server/composition.ts";
import { action as disableAction } from "../../app/routes/admin/account-two-factor.tsx";
import { createLoginThrottle, LOGIN_THROTTLE_RULES } from "../../server/accounts/login-throttle.ts";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, postForm, routeArgs, settle } from "../support/route-context.ts";
import { buildPostInput, TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const PASSWORD = "a long enough password";
const DAY = 24 * 60 * 60 * 1000;

function codeAt(secret: string, at: Date): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof RateLimitedError) return "locked";
    if (isDomainError(error)) return error.code;
    throw error;
  }
}

describe.each(testDialects())("accounts on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  async function ownerAndEditor() {
    await blog.services.auth.createAdmin("owner@example.com", PASSWORD);
    const { user: owner } = await blog.services.auth.signIn("owner@example.com", PASSWORD);
    const { token } = await blog.services.users.invite(owner, "editor@example.com");
    await blog.services.users.acceptInvitation(token, "Eddie Editor", PASSWORD);
    const { user: editor } = await blog.services.auth.signIn("editor@example.com", PASSWORD);
    return { owner, editor };
  }

  it("makes the first account the owner and invited ones editors, and lets only the owner manage users", async () => {
    const { owner, editor } = await ownerAndEditor();
    expect(owner.role).toBe("owner");
    expect(editor).toMatchObject({ role: "editor", username: "Eddie Editor" });
    expect(await codeOf(blog.services.users.invite(editor, "someone@example.com"))).toBe("FORBIDDEN");
    expect(await codeOf(blog.services.users.listPage(editor, 1))).toBe("FORBIDDEN");
    expect(await codeOf(blog.services.users.removeAccount(owner, owner.id))).toBe("FORBIDDEN");

    await blog.services.users.transferOwnership(owner, editor.id);
    const { user: newOwner } = await blog.services.auth.signIn("editor@example.com", PASSWORD);
    const { user: formerOwner } = await blog.services.auth.signIn("owner@example.com", PASSWORD);
    expect([newOwner.role, formerOwner.role]).toEqual(["owner", "editor"]);
  });

  it("accepts an invitation once, and never after 7 days or once revoked", async () => {
    await blog.services.auth.createAdmin("owner@example.com", PASSWORD);
    const { user: owner } = await blog.services.auth.signIn("owner@example.com", PASSWORD);
    const used = await blog.services.users.invite(owner, "one@example.com");
    await blog.services.users.acceptInvitation(used.token, "One", PASSWORD);
    expect(await codeOf(blog.services.users.acceptInvitation(used.token, "One again", PASSWORD))).toBe(
      "INVITATION_INVALID",
    );

    const late = await blog.services.users.invite(owner, "two@example.com");
    blog.clock.advance(7 * DAY + 1000);
    expect(await blog.services.users.checkInvitation(late.token)).toBeUndefined();
    expect(await codeOf(blog.services.users.acceptInvitation(late.token, "Two", PASSWORD))).toBe("INVITATION_INVALID");

    const revoked = await blog.services.users.invite(owner, "three@example.com");
    expect(await blog.services.users.revokeInvitation(owner, revoked.invitation.id)).toBe(true);
    expect(await codeOf(blog.services.users.acceptInvitation(revoked.token, "Three", PASSWORD))).toBe(
      "INVITATION_INVALID",
    );
  });

  it("asks for a code after the password, accepts ±1 step, refuses ±2 and any code twice, and spends recovery codes once", async () => {
    const account = await blog.services.auth.createAdmin("owner@example.com", PASSWORD);
    await blog.services.twoFactor.startEnrolment(account.id);
    const { secret } = (await blog.services.twoFactor.pendingEnrolment(account.id))!;
    expect(await codeOf(blog.services.twoFactor.confirmEnrolment(account.id, "000000"))).toBe("INVALID_CREDENTIALS");
    const recoveryCodes = await blog.services.twoFactor.confirmEnrolment(account.id, codeAt(secret, blog.clock.now()));
    expect(recoveryCodes).toHaveLength(10);
    expect(await blog.services.twoFactor.pendingEnrolment(account.id)).toBeUndefined();

    const signIn = async (code: string) => {
      const step = await blog.services.auth.beginSignIn("owner@example.com", PASSWORD);
      if (step.kind !== "two-factor") throw new Error("expected a second step");
      return codeOf(blog.services.auth.completeTwoFactorSignIn(step.challenge, code));
    };

    blog.clock.advance(60_000);
    const now = blog.clock.now().getTime();
    expect(await signIn(codeAt(secret, new Date(now - 60_000)))).toBe("INVALID_CREDENTIALS");
    expect(await signIn(codeAt(secret, new Date(now + 60_000)))).toBe("INVALID_CREDENTIALS");
    const early = codeAt(secret, new Date(now - 30_000));
    expect(await signIn(early)).toBe("ok");
    expect(await signIn(early)).toBe("INVALID_CREDENTIALS");
    expect(await signIn(codeAt(secret, blog.clock.now()))).toBe("ok");
    expect(await signIn(codeAt(secret, blog.clock.now()))).toBe("INVALID_CREDENTIALS");
    expect(await signIn(codeAt(secret, new Date(now + 30_000)))).toBe("ok");

    expect(await signIn(recoveryCodes[0]!.toUpperCase())).toBe("ok");
    expect(await signIn(recoveryCodes[0]!)).toBe("INVALID_CREDENTIALS");
    expect((await blog.services.twoFactor.status(account.id)).recoveryCodesLeft).toBe(9);

    blog.clock.advance(6 * 60_000);
    const stale = await blog.services.auth.beginSignIn("owner@example.com", PASSWORD);
    blog.clock.advance(6 * 60_000);
    if (stale.kind !== "two-factor") throw new Error("expected a second step");
    expect(await codeOf(blog.services.auth.completeTwoFactorSignIn(stale.challenge, recoveryCodes[1]!))).toBe(
      "TWO_FACTOR_EXPIRED",
    );

    expect(await blog.services.twoFactor.reset("owner@example.com")).toBe(true);
    expect((await blog.services.auth.beginSignIn("owner@example.com", PASSWORD)).kind).toBe("session");
  });

  it("signs out one session or all others, and a new password ends every other session", async () => {
    await blog.services.auth.createAdmin("owner@example.com", PASSWORD);
    const here = await blog.services.auth.signIn("owner@example.com", PASSWORD, { userAgent: "Firefox" });
    const phone = await blog.services.auth.signIn("owner@example.com", PASSWORD, { userAgent: "Safari" });
    await blog.services.auth.signIn("owner@example.com", PASSWORD, { userAgent: "Chrome" });

    const sessions = await blog.services.auth.listSessions(here.user.id, here.token);
    expect(sessions.map((session) => [session.userAgent, session.current]).sort()).toEqual([
      ["Chrome", false],
      ["Firefox", true],
      ["Safari", false],
    ]);
    const safari = sessions.find((session) => session.userAgent === "Safari")!;
    expect(await blog.services.auth.signOutSession(here.user.id, safari.idHash)).toBe(true);
    expect(await blog.services.auth.getSessionUser(phone.token)).toBeUndefined();

    await blog.services.auth.changePassword(here.user, here.token, PASSWORD, "another long password");
    expect(await blog.services.auth.listSessions(here.user.id, here.token)).toHaveLength(1);
    expect(await blog.services.auth.getSessionUser(here.token)).toBeDefined();
    expect(await codeOf(blog.services.auth.changePassword(here.user, here.token, PASSWORD, "x".repeat(12)))).toBe(
      "INVALID_CREDENTIALS",
    );
  });

  it("holds turning two-factor sign-in off to the code step's limits, which sign-in's code step shares", async () => {
    const account = await blog.services.auth.createAdmin("owner@example.com", PASSWORD);
    const { user } = await blog.services.auth.signIn("owner@example.com", PASSWORD);
    await blog.services.twoFactor.startEnrolment(account.id);
    const { secret } = (await blog.services.twoFactor.pendingEnrolment(account.id))!;
    await blog.services.twoFactor.confirmEnrolment(account.id, codeAt(secret, blog.clock.now()));
    blog.clock.advance(60_000);
    const wrongCode = codeAt(secret, new Date(blog.clock.now().getTime() + 10 * 60_000));

    const loginThrottle = createLoginThrottle({
      db: blog.handle.db,
      now: blog.clock.now,
      secret: TEST_COMMENT_IP_SALT,
      sleep: async () => {},
    });
    const { context } = createRouteTestContext({ ...blog.services, loginThrottle }, user, "198.51.100.7");
    const turnOff = (password: string, code: string) =>
      settle(() =>
        disableAction(
          routeArgs(
            postForm("http://blog.test/admin/account/two-factor", { intent: "disable", password, code }),
            context,
          ) as Parameters<typeof disableAction>[0],
        ),
      );

    const statuses = [];
    for (const [password, code] of [
      [PASSWORD, wrongCode],
      ["wrong password", codeAt(secret, blog.clock.now())],
      [PASSWORD, wrongCode],
      [PASSWORD, wrongCode],
    ]) {
      statuses.push((await turnOff(password!, code!)).status);
    }
    const locked = await turnOff(PASSWORD, wrongCode);
    expect([...statuses, locked.status]).toEqual([401, 401, 401, 401, 429]);
    expect(locked.body).toEqual({
      values: {},
      errors: {},
      formError: "Too many failed sign-in attempts. Please try again in 15 minutes.",
    });
    expect(locked.headers.get("Retry-After")).toBe("900");

    // The right password and code wait too, and so does signing in with a code elsewhere.
    expect((await turnOff(PASSWORD, codeAt(secret, blog.clock.now()))).status).toBe(429);
    const step = await blog.services.auth.beginSignIn("owner@example.com", PASSWORD);
    if (step.kind !== "two-factor") throw new Error("expected a second step");
    expect(
      await codeOf(
        loginThrottle.guardCodeStep({ accountId: account.id, clientAddress: "203.0.113.5" }, () =>
          blog.services.auth.completeTwoFactorSignIn(step.challenge, codeAt(secret, blog.clock.now())),
        ),
      ),
    ).toBe("locked");
    expect((await blog.services.twoFactor.status(account.id)).enabled).toBe(true);

    blog.clock.advance(15 * 60_000 + 1000);
    const done = await turnOff(PASSWORD, codeAt(secret, blog.clock.now()));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/account");
    expect((await blog.services.twoFactor.status(account.id)).enabled).toBe(false);
  });

  it("keeps the owner's known browser signing in while an attacker has locked the email", async () => {
    await blog.services.auth.createAdmin("owner@example.com", PASSWORD);
    const attempt = (password: string, clientAddress: string, knownDevice?: string) =>
      codeOf(
        blog.services.loginThrottle.guardSignIn({ email: "owner@example.com", clientAddress, knownDevice }, () =>
          blog.services.auth.signIn("owner@example.com", password),
        ),
      );
    for (let index = 0; index < LOGIN_THROTTLE_RULES.email.maxFailures; index += 1) {
      await attempt("wrong password", `203.0.113.${index}`);
    }
    expect(await attempt(PASSWORD, "198.51.100.9")).toBe("locked");
    expect(await attempt(PASSWORD, "198.51.100.9", "owners-device-nonce")).toBe("ok");
  });

  it("records sign-ins, account, settings and publishing changes in the audit log, newest first", async () => {
    const { owner } = await ownerAndEditor();
    await codeOf(blog.services.auth.signIn("owner@example.com", "wrong password"));
    const settings = await blog.services.siteSettings.current();
    await blog.services.siteSettings.update({ ...settings, title: "Field Notes" }, { id: owner.id, label: "owner" });
    const post = await blog.services.posts.createPost(buildPostInput({ title: "Hello", published: true }), {
      id: owner.id,
      label: "owner",
      email: "owner@example.com",
    });
    await blog.services.posts.deletePost(post.id, { id: owner.id, label: "owner" });
    const { entries } = await blog.services.audit.listPage();
    expect(entries.map((entry) => entry.action)).toEqual(
      expect.arrayContaining([
        "sign-in",
        "sign-in-failed",
        "user-invited",
        "invitation-accepted",
        "settings-changed",
        "post-published",
        "post-deleted",
      ]),
    );
    expect(entries.find((entry) => entry.action === "settings-changed")?.detail).toBe("title");

    blog.clock.advance(181 * DAY);
    await blog.services.housekeeping.purgeExpired();
    expect((await blog.services.audit.listPage()).entries).toEqual([]);
  });

  it("serves saved settings at once and tells subscribers", async () => {
    const seen: string[] = [];
    blog.services.siteSettings.onChange((settings) => seen.push(settings.title));
    const before = await blog.services.siteSettings.current();
    expect(before.title).toBe("Inkwell");
    await blog.services.siteSettings.update({ ...before, title: "Field Notes" }, { label: "owner" });
    expect((await blog.services.siteSettings.current()).title).toBe("Field Notes");
    expect(seen).toEqual(["Field Notes"]);
  });

  it("tells a second app server of a save within a second, though no request there reads the settings", async () => {
    // Another app server on the same database, whose pages come from its page cache.
    const other = createServices({
      db: blog.handle.db,
      dialect,
      now: blog.clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    await other.siteSettings.current();
    const seen: string[] = [];
    other.siteSettings.onChange((settings) => seen.push(settings.title));
    const failures: unknown[] = [];
    const watcher = other.settings.worker((error) => failures.push(error));
    await watcher.start();
    try {
      const before = await blog.services.siteSettings.current();
      await blog.services.siteSettings.update({ ...before, title: "Field Notes" }, { label: "owner" });
      await vi.waitFor(() => expect(seen).toEqual(["Field Notes"]), { timeout: 10_000, interval: 100 });
    } finally {
      await watcher.stop();
    }
    expect(failures).toEqual([]);
  });
});
