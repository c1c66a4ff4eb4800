import { describe, expect, it, vi } from "vitest";
import { createRouteTestContext, postForm, routeArgs } from "../../../tests/support/route-context.ts";
import { DatabaseUnavailableError, DomainError, RateLimitedError } from "#domain/errors.ts";
import { action } from "./login";

type ActionArgs = Parameters<typeof action>[0];

function servicesFor(beginSignIn: () => Promise<unknown>) {
  return {
    auth: { beginSignIn: vi.fn(beginSignIn) },
    loginThrottle: { guardSignIn: vi.fn((_attempt: unknown, attempt: () => Promise<unknown>) => attempt()) },
  };
}

async function submit(services: object, fields: Record<string, string>) {
  const { context, logger } = createRouteTestContext(services, null);
  const result = await action(routeArgs(postForm("http://blog.test/login", fields), context) as ActionArgs);
  return { result, logger };
}

describe("the login action", () => {
  it("asks for both fields when either is blank after trimming, without trying to sign in", async () => {
    const services = servicesFor(() => Promise.reject(new Error("not called")));
    for (const fields of [
      { email: "  ", password: "secret password" },
      { email: "ada@example.com", password: "   " },
    ]) {
      const { result } = await submit(services, fields);
      expect(result).toMatchObject({
        data: { formError: "Please enter both email and password" },
        init: { status: 400 },
      });
    }
    expect(services.auth.beginSignIn).not.toHaveBeenCalled();
  });

  it("answers wrong credentials with the one message, keeping the email but never the password", async () => {
    const services = servicesFor(() => Promise.reject(new DomainError("INVALID_CREDENTIALS", "no")));
    const { result } = await submit(services, { email: "ada@example.com", password: "wrong password" });
    expect(result).toMatchObject({
      data: { formError: "Invalid email or password", values: { email: "ada@example.com" } },
      init: { status: 401 },
    });
    expect(JSON.stringify(result)).not.toContain("wrong password");
  });

  it("says 'An error occurred during login' when anything else fails, and logs it", async () => {
    const services = servicesFor(() => Promise.reject(new DatabaseUnavailableError()));
    const { result, logger } = await submit(services, { email: "ada@example.com", password: "right password" });
    expect(result).toMatchObject({ data: { formError: "An error occurred during login" }, init: { status: 503 } });
    expect(logger.error).toHaveBeenCalledOnce();
  });

  it("refuses with 429 and says how long to wait while throttled", async () => {
    const services = servicesFor(() => Promise.reject(new RateLimitedError(900)));
    const { result } = await submit(services, { email: "ada@example.com", password: "right password" });
    expect(result).toMatchObject({
      data: { formError: "Too many failed sign-in attempts. Please try again in 15 minutes." },
      init: { status: 429, headers: { "Retry-After": "900" } },
    });
  });

  it("rejects overlong input with a clear message", async () => {
    const services = servicesFor(() => Promise.reject(new Error("not called")));
    const { result } = await submit(services, { email: "ada@example.com", password: "x".repeat(257) });
    expect(result).toMatchObject({
      data: { formError: "Password must be at most 256 characters" },
      init: { status: 400 },
    });
  });

  it("sets the session cookie and goes to the page first asked for, never off-site", async () => {
    const services = servicesFor(() => Promise.resolve({ kind: "session", token: "session-token", user: {} }));
    const { result } = await submit(services, {
      email: " ada@example.com ",
      password: "right password",
      redirectTo: "/admin/posts?q=go",
    });
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    expect(response.headers.get("Location")).toBe("/admin/posts?q=go");
    const [session, device] = response.headers.getSetCookie();
    expect(session).toMatch(/^blog_session=.+; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    // The browser is known from now on: another's failures for this email no longer lock it out.
    expect(device).toMatch(/^blog_device=.+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(services.auth.beginSignIn).toHaveBeenCalledWith("ada@example.com", "right password", { userAgent: "" });

    const { result: offSite } = await submit(services, {
      email: "ada@example.com",
      password: "right password",
      redirectTo: "//evil.example/",
    });
    expect((offSite as Response).headers.get("Location")).toBe("/admin");
  });
});
