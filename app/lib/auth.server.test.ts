import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { userContext } from "#server/request-context.ts";
import { loginPath, requireAdmin, safeRedirectPath } from "./auth.server";

describe("safeRedirectPath", () => {
  it("keeps paths on this site, with their query and hash", () => {
    expect(safeRedirectPath("/admin/posts?q=rust#top")).toBe("/admin/posts?q=rust#top");
    expect(safeRedirectPath("/admin/posts/edit/abc")).toBe("/admin/posts/edit/abc");
  });

  it.each([
    "//evil.example/admin",
    "/\\evil.example",
    "https://evil.example/admin",
    "javascript:alert(1)",
    "admin",
    "",
    null,
    undefined,
  ])("falls back to /admin for %s", (target) => {
    expect(safeRedirectPath(target)).toBe("/admin");
  });
});

describe("requireAdmin", () => {
  const signedOut = () => {
    const context = new RouterContextProvider();
    context.set(userContext, null);
    return context;
  };

  function redirectedTo(url: string): string | null {
    try {
      requireAdmin({ request: new Request(url), context: signedOut() });
    } catch (thrown) {
      return thrown instanceof Response ? thrown.headers.get("Location") : null;
    }
    return null;
  }

  it("returns the signed-in admin", () => {
    const context = new RouterContextProvider();
    const user = {
      id: "a1",
      email: "ada@example.com",
      username: "ada",
      role: "editor",
      writingView: "markdown",
      isAdmin: true,
    } as const;
    context.set(userContext, user);
    expect(requireAdmin({ request: new Request("http://blog.test/admin"), context })).toBe(user);
  });

  it("sends a visitor to sign in and back to the page they asked for", () => {
    expect(redirectedTo("http://blog.test/admin/posts?q=rust")).toBe("/login?redirectTo=%2Fadmin%2Fposts%3Fq%3Drust");
  });

  it("names the page, not the data request, after a client-side navigation", () => {
    expect(redirectedTo("http://blog.test/admin/posts.data?q=go&_routes=routes%2Fadmin%2Fposts")).toBe(
      loginPath(new Request("http://blog.test/admin/posts?q=go")),
    );
    expect(redirectedTo("http://blog.test/admin.data?index")).toBe("/login?redirectTo=%2Fadmin");
  });
});
