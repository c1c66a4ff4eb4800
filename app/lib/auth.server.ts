import { data, redirect, type RouterContextProvider } from "react-router";
import { appContext, userContext } from "#server/request-context.ts";
import type { Writer } from "#server/posts/index.ts";
import type { Actor, SessionUser } from "#server/accounts/index.ts";
import type { RouteErrorData } from "./route-errors.server";

/** Matches the session's absolute limit: the cookie never outlives the session it points at. */
export const SESSION_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

const SAFE_REDIRECT_BASE = "http://same-site.invalid";

/**
 * `to` when it is a path on this site, else `fallback`. Only a single leading slash is
 * accepted and the parsed URL must stay on the placeholder origin, which rules out
 * `//evil.example`, `/\evil.example`, `https:` URLs and other open-redirect tricks.
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = "/admin"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  try {
    const url = new URL(to, SAFE_REDIRECT_BASE);
    if (url.origin !== SAFE_REDIRECT_BASE) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

export function pagePathname(url: URL): string {
  if (url.pathname === "/_root.data") return "/";
  return url.pathname.endsWith(".data") ? url.pathname.slice(0, -".data".length) : url.pathname;
}

/**
 * The page the visitor asked for, as a browser would address it: client-side navigations
 * reach the server as `/path.data?_routes=…` requests, which must not become the place
 * a visitor is sent back to.
 */
function requestedPage(request: Request): string {
  const url = new URL(request.url);
  const pathname = pagePathname(url);
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  const search = url.searchParams.toString();
  return search ? `${pathname}?${search}` : pathname;
}

export function loginPath(request: Request): string {
  return `/login?${new URLSearchParams({ redirectTo: requestedPage(request) })}`;
}

/**
 * The signed-in admin, or a redirect to the sign-in page that brings them back here.
 * Every admin loader and action calls it, whatever the admin layout already checked.
 */
export function requireAdmin({
  request,
  context,
}: {
  request: Request;
  context: Readonly<RouterContextProvider>;
}): SessionUser {
  const user = context.get(userContext);
  if (!user) throw redirect(loginPath(request));
  return user;
}

/**
 * The signed-in owner. Anyone else signed in gets a 403, whether they opened the page or
 * forged a form post; nobody signed in goes to the sign-in page.
 */
export function requireOwner(args: { request: Request; context: Readonly<RouterContextProvider> }): SessionUser {
  const user = requireAdmin(args);
  if (user.role !== "owner") {
    throw data<RouteErrorData>({ message: "Only the owner can open this page" }, { status: 403 });
  }
  return user;
}

/** Who did it, for the audit log. */
export function actorOf(user: SessionUser): Actor {
  return { id: user.id, label: user.username };
}

/** Who saved a post: named in its revisions and in the audit log. */
export function writerOf(user: SessionUser): Writer {
  return { ...actorOf(user), email: user.email };
}

/** The device-cookie nonce when this browser signed in to `email` before (server/accounts/login-throttle.ts). */
export async function knownDeviceFor(
  request: Request,
  context: Readonly<RouterContextProvider>,
  email: string,
): Promise<string | undefined> {
  const device = await context.get(appContext).deviceCookie.read(request);
  return device && device.email === email.trim().toLowerCase() ? device.nonce : undefined;
}

/** A successful sign-in: the session cookie, a fresh device cookie, and the 2FA step's cookie gone. */
export async function signedInCookies(
  context: Readonly<RouterContextProvider>,
  sessionToken: string,
  email: string,
): Promise<Headers> {
  const { sessionCookie, deviceCookie, twoFactorCookie } = context.get(appContext);
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie.issue(sessionToken));
  headers.append("Set-Cookie", await deviceCookie.issue(email));
  headers.append("Set-Cookie", await twoFactorCookie.clear());
  return headers;
}
