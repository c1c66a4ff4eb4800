import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createCookie } from "react-router";

/** Time to open the authenticator app and type a code after the password was accepted. */
export const TWO_FACTOR_CHALLENGE_MS = 5 * 60 * 1000;

/** The password was right and the account asks for a code: what the second step needs to know. */
export interface TwoFactorChallenge {
  adminId: string;
  email: string;
  issuedAt: string;
}

export const SESSION_COOKIE_NAME = "blog_session";
/** Matches the session's absolute limit: the cookie never outlives the session it points at. */
export const SESSION_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * The admin session cookie: the only place it is named, signed, read, issued and cleared.
 * It holds the session token; the database keeps only the token's hash (server/accounts/auth.ts).
 */
export interface SessionCookie {
  read(request: Request): Promise<string | undefined>;
  /** A Set-Cookie value that signs the browser in with `token`. */
  issue(token: string): Promise<string>;
  /** A Set-Cookie value that removes the cookie. */
  clear(): Promise<string>;
}

/** The first `name=` value of a Cookie header, still URI-encoded, as React Router's parser takes it. */
function cookieValue(cookieHeader: string, name: string): string | undefined {
  for (const pair of cookieHeader.split(";")) {
    const equals = pair.indexOf("=");
    if (equals >= 0 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim();
  }
  return undefined;
}

/**
 * Whether the Cookie header carries the cookie `name` as this server signed it, the check
 * React Router's `parse` makes (a value `<payload>.<unpadded base64 HMAC-SHA-256 of it>`),
 * made here with a synchronous HMAC: WebCrypto's takes about 60 µs a call, and the page cache
 * asks on every request that carries such a cookie (server/http-page-cache.ts). Only a signature check:
 * whether a signed session still lives is the database's to say.
 */
export function carriesSignedCookie(cookieHeader: string | undefined, name: string, secret: string): boolean {
  const encoded = cookieHeader === undefined ? undefined : cookieValue(cookieHeader, name);
  if (!encoded) return false;
  let value: string;
  try {
    value = decodeURIComponent(encoded);
  } catch {
    return false;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 0) return false;
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(
    createHmac("sha256", secret).update(value.slice(0, dot)).digest("base64").replace(/=+$/, ""),
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Every cookie the blog signs: out of scripts' reach, sent on same-site navigations only. */
function signedCookie(name: string, { secret, secure }: { secret: string; secure: boolean }) {
  return createCookie(name, { httpOnly: true, sameSite: "lax", secure, path: "/", secrets: [secret] });
}

export function createSessionCookie({ secret, secure }: { secret: string; secure: boolean }): SessionCookie {
  const cookie = signedCookie(SESSION_COOKIE_NAME, { secret, secure });
  return {
    async read(request) {
      const token: unknown = await cookie.parse(request.headers.get("Cookie"));
      return typeof token === "string" && token !== "" ? token : undefined;
    },
    issue: (token) => cookie.serialize(token, { maxAge: SESSION_COOKIE_MAX_AGE_SECONDS }),
    clear: () => cookie.serialize("", { maxAge: 0 }),
  };
}

export const DEVICE_COOKIE_NAME = "blog_device";
/** A browser stays known for a year after its last successful sign-in. */
const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** What a device cookie says: this browser signed in to this email before; the nonce names its budget. */
export interface KnownDevice {
  email: string;
  nonce: string;
}

/**
 * The device cookie (OWASP, "Blocking Brute Force Attacks"): signed, so only this server
 * can make one; a browser that presents one for the email it signs in with is not held by
 * that email's lock (server/accounts/login-throttle.ts).
 */
export interface DeviceCookie {
  read(request: Request): Promise<KnownDevice | undefined>;
  issue(email: string): Promise<string>;
}

export function createDeviceCookie({ secret, secure }: { secret: string; secure: boolean }): DeviceCookie {
  const cookie = signedCookie(DEVICE_COOKIE_NAME, { secret, secure });
  return {
    async read(request) {
      const value: unknown = await cookie.parse(request.headers.get("Cookie"));
      if (typeof value !== "object" || value === null) return undefined;
      const { email, nonce } = value as Record<string, unknown>;
      return typeof email === "string" && typeof nonce === "string" ? { email, nonce } : undefined;
    },
    issue: (email) =>
      cookie.serialize(
        { email: email.trim().toLowerCase(), nonce: randomBytes(16).toString("base64url") },
        { maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS },
      ),
  };
}

export const TWO_FACTOR_COOKIE_NAME = "blog_2fa";

/**
 * Between the password and the code: a signed, short-lived cookie naming the account whose
 * password was right. No session exists until the code passes; the service checks its age.
 */
export interface TwoFactorCookie {
  read(request: Request): Promise<TwoFactorChallenge | undefined>;
  issue(challenge: TwoFactorChallenge): Promise<string>;
  clear(): Promise<string>;
}

export function createTwoFactorCookie({ secret, secure }: { secret: string; secure: boolean }): TwoFactorCookie {
  const cookie = signedCookie(TWO_FACTOR_COOKIE_NAME, { secret, secure });
  return {
    async read(request) {
      const value: unknown = await cookie.parse(request.headers.get("Cookie"));
      if (typeof value !== "object" || value === null) return undefined;
      const { adminId, email, issuedAt } = value as Record<string, unknown>;
      return typeof adminId === "string" && typeof email === "string" && typeof issuedAt === "string"
        ? { adminId, email, issuedAt }
        : undefined;
    },
    issue: (challenge) => cookie.serialize(challenge, { maxAge: TWO_FACTOR_CHALLENGE_MS / 1000 }),
    clear: () => cookie.serialize("", { maxAge: 0 }),
  };
}

export const PENDING_COMMENTS_COOKIE_NAME = "blog_pending_comments";
/** How many of a visitor's held comments their cookie remembers (docs/decisions/0008-comment-moderation.md). */
const PENDING_COMMENTS_MAX = 20;
const PENDING_COMMENTS_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * The ids of a visitor's own comments awaiting moderation, signed, so that they, and only
 * they, still see those comments under the post. Anyone can send the cookie's name; only a
 * value this server signed makes a page personal (server/http-page-cache.ts).
 */
export interface PendingCommentsCookie {
  /** The newest few ids; [] when the cookie is absent or forged. */
  read(request: Request): Promise<string[]>;
  /** A Set-Cookie value that adds one held comment, keeping only the newest few. */
  remember(request: Request, commentId: string): Promise<string>;
}

export function createPendingCommentsCookie({
  secret,
  secure,
}: {
  secret: string;
  secure: boolean;
}): PendingCommentsCookie {
  const cookie = signedCookie(PENDING_COMMENTS_COOKIE_NAME, { secret, secure });
  const read = async (request: Request): Promise<string[]> => {
    const value: unknown = await cookie.parse(request.headers.get("Cookie"));
    return Array.isArray(value)
      ? value.filter((id): id is string => typeof id === "string").slice(-PENDING_COMMENTS_MAX)
      : [];
  };
  return {
    read,
    async remember(request, commentId) {
      const ids = [...(await read(request)), commentId].slice(-PENDING_COMMENTS_MAX);
      return cookie.serialize(ids, { maxAge: PENDING_COMMENTS_MAX_AGE_SECONDS });
    },
  };
}
