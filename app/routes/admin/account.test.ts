import { describe, expect, it, vi } from "vitest";
import {
  createRouteTestContext,
  postForm,
  routeArgs,
  settle,
  TEST_ADMIN,
} from "../../../tests/support/route-context.ts";
import { DatabaseUnavailableError, DomainError } from "#domain/errors.ts";
import { takeFlash } from "~/lib/flash.server";
import { action as passwordAction } from "./account-password";
import { action as profileAction } from "./account-profile";
import { action as sessionsAction } from "./account-sessions";
import { action as twoFactorAction } from "./account-two-factor";

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  settle(() => handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs));

/** The notice the page shows after following a redirect, read from the flash cookie it set. */
async function noticeAfter(outcome: { headers: Headers }): Promise<string | undefined> {
  const cookie = outcome.headers.get("Set-Cookie")?.split(";")[0] ?? "";
  return (await takeFlash(new Request("http://blog.test/admin/account", { headers: { Cookie: cookie } }))).message;
}

function changeDisplayName(displayName: string, updateDisplayName = vi.fn(() => Promise.resolve())) {
  const { context, logger } = createRouteTestContext({ users: { updateDisplayName } }, TEST_ADMIN);
  const request = postForm("http://blog.test/admin/account/profile", { displayName });
  return { outcome: call(profileAction, request, context), updateDisplayName, logger };
}

describe("the display-name form", () => {
  it("saves the trimmed name for the signed-in account and says so back on the account page", async () => {
    const { outcome, updateDisplayName } = changeDisplayName("  Ada Lovelace ");
    const settled = await outcome;
    expect(settled).toMatchObject({ status: 302 });
    expect(settled.headers.get("Location")).toBe("/admin/account");
    expect(await noticeAfter(settled)).toBe("Display name saved.");
    expect(updateDisplayName).toHaveBeenCalledWith(TEST_ADMIN, "Ada Lovelace");
  });

  it("refuses an empty or overlong name with a 400 on the field, keeping what was typed", async () => {
    const empty = changeDisplayName("   ");
    expect(await empty.outcome).toMatchObject({
      status: 400,
      body: { errors: { displayName: "Please enter a display name" } },
    });
    const long = changeDisplayName("x".repeat(81));
    expect(await long.outcome).toMatchObject({
      status: 400,
      body: {
        values: { displayName: "x".repeat(81) },
        errors: { displayName: "Display name must be at most 80 characters" },
      },
    });
    expect(empty.updateDisplayName).not.toHaveBeenCalled();
    expect(long.updateDisplayName).not.toHaveBeenCalled();
  });

  it("answers a database outage with a 503 on the field and one log line", async () => {
    const { outcome, logger } = changeDisplayName(
      "Ada",
      vi.fn(() => Promise.reject(new DatabaseUnavailableError())),
    );
    const settled = await outcome;
    expect(settled).toMatchObject({
      status: 503,
      body: { values: { displayName: "Ada" }, errors: { displayName: "That did not work. Please try again." } },
    });
    expect(settled.headers.get("Retry-After")).toBe("5");
    expect(logger.error).toHaveBeenCalledOnce();
  });
});

describe("the other account forms", () => {
  it("refuse a wrong current password on its field and never send a password back", async () => {
    const changePassword = vi.fn(() =>
      Promise.reject(new DomainError("INVALID_CREDENTIALS", "Your current password is not right")),
    );
    const { context } = createRouteTestContext({ auth: { changePassword } }, TEST_ADMIN);
    const form = { currentPassword: "guess", newPassword: "a new password", confirmPassword: "a new password" };
    const refused = await call(passwordAction, postForm("http://blog.test/admin/account/password", form), context);
    expect(refused).toEqual({
      status: 401,
      body: { values: {}, errors: { currentPassword: "Your current password is not right" } },
      headers: expect.any(Headers),
    });
    const mismatched = await call(
      passwordAction,
      postForm("http://blog.test/admin/account/password", { ...form, confirmPassword: "something else" }),
      context,
    );
    expect(mismatched).toMatchObject({
      status: 400,
      body: { values: {}, errors: { confirmPassword: "The passwords do not match" } },
    });
  });

  it("hand back the recovery codes once, as the one result shape's created value", async () => {
    const confirmEnrolment = vi.fn(() => Promise.resolve(["aaaa-bbbb", "cccc-dddd"]));
    const { context } = createRouteTestContext({ twoFactor: { confirmEnrolment } }, TEST_ADMIN);
    const outcome = await call(
      twoFactorAction,
      postForm("http://blog.test/admin/account/two-factor", { intent: "confirm", code: "123 456" }),
      context,
    );
    expect(outcome).toMatchObject({
      status: 200,
      body: { values: {}, errors: {}, created: { recoveryCodes: ["aaaa-bbbb", "cccc-dddd"] } },
    });
    expect(confirmEnrolment).toHaveBeenCalledWith(TEST_ADMIN.id, "123456");
  });

  it("sign out another session and say so on the account page; a forged intent is a 400", async () => {
    const signOutSession = vi.fn(() => Promise.resolve(true));
    const { context } = createRouteTestContext({ auth: { signOutSession } }, TEST_ADMIN);
    const url = "http://blog.test/admin/account/sessions";
    const done = await call(sessionsAction, postForm(url, { intent: "sign-out-session", id: "hash-1" }), context);
    expect(done.headers.get("Location")).toBe("/admin/account");
    expect(await noticeAfter(done)).toBe("Signed out.");
    expect(signOutSession).toHaveBeenCalledWith(TEST_ADMIN.id, "hash-1");

    for (const [action, path] of [
      [sessionsAction, "sessions"],
      [twoFactorAction, "two-factor"],
    ] as const) {
      const forged = await call(
        action,
        postForm(`http://blog.test/admin/account/${path}`, { intent: "drop-tables" }),
        context,
      );
      expect(forged, path).toMatchObject({ status: 400, body: { formError: "Unknown action" } });
    }
  });

  it("send someone signed out to sign in, changing nothing", async () => {
    const services = {
      users: { updateDisplayName: vi.fn() },
      auth: { changePassword: vi.fn(), signOutOtherSessions: vi.fn() },
    };
    const { context } = createRouteTestContext(services, null);
    for (const [action, path, form] of [
      [profileAction, "profile", { displayName: "Mallory" }],
      [
        passwordAction,
        "password",
        { currentPassword: "a", newPassword: "b".repeat(12), confirmPassword: "b".repeat(12) },
      ],
      [twoFactorAction, "two-factor", { intent: "start" }],
      [sessionsAction, "sessions", { intent: "sign-out-others" }],
    ] as const) {
      const outcome = await call(action, postForm(`http://blog.test/admin/account/${path}`, form), context);
      expect(outcome.status, path).toBe(302);
      expect(outcome.headers.get("Location"), path).toMatch(/^\/login\?redirectTo=/);
    }
    for (const service of Object.values(services)) {
      for (const method of Object.values(service)) expect(method).not.toHaveBeenCalled();
    }
  });
});
