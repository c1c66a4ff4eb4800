import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Request, RequestHandler } from "express";
import { PERMISSIONS_POLICY } from "./http-security-headers.ts";

/** Every method the blog answers; anything else (TRACE, PUT, DELETE, WebDAV…) is refused with 405. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;
/** Methods that carry no body and change nothing: the body and origin checks let them through. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);
/**
 * The bodies a POST may carry: the two encodings of an HTML form. Actions read nothing else,
 * so a route that needs another type (an image upload, say) is a deliberate addition here.
 */
export const ACCEPTED_BODY_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"] as const;

function hostOf(url: string | undefined): string | undefined {
  if (!url || url === "null") return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/**
 * A method outside ALLOWED_METHODS never reaches React Router, which would treat PUT or DELETE as an action.
 * `apiPrefixes`: the APIs Express answers itself that speak other methods (Ghost's Admin API edits with PUT).
 */
export function refuseOtherMethods(apiPrefixes: readonly string[] = []): RequestHandler {
  const allowed = new Set<string>(ALLOWED_METHODS);
  const allowHeader = ALLOWED_METHODS.join(", ");
  return (req, res, next) => {
    if (allowed.has(req.method) || apiPrefixes.some((prefix) => req.path.startsWith(prefix))) return next();
    res
      .status(405)
      .set("Allow", allowHeader)
      .type("text/plain")
      .send(`Method Not Allowed: this site answers ${allowHeader}.`);
  };
}

/**
 * Node hands a CONNECT (a request to open a tunnel) to the server's "connect" listeners instead
 * of the app, and drops the connection when there are none: this answers it like any other
 * method outside ALLOWED_METHODS.
 */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  // Node no longer listens for this socket's errors; a client that resets it is not a failure.
  socket.on("error", () => socket.destroy());
  const body = `Method Not Allowed: this site answers ${ALLOWED_METHODS.join(", ")}.`;
  socket.end(
    [
      "HTTP/1.1 405 Method Not Allowed",
      `Allow: ${ALLOWED_METHODS.join(", ")}`,
      `Permissions-Policy: ${PERMISSIONS_POLICY}`,
      "Content-Type: text/plain; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
}

/** A Host value as RFC 9110 allows it: a host and an optional port, nothing else. */
function isAuthority(value: string): boolean {
  try {
    const url = new URL(`http://${value}`);
    return url.username === "" && url.password === "" && url.pathname === "/" && url.search === "" && !url.hash;
  } catch {
    return false;
  }
}

/** Control characters and the Unicode line separators, which no path on this site contains. */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]/u;

function decodedPath(target: string): string | undefined {
  try {
    return decodeURIComponent(target.split("?", 1)[0]!);
  } catch {
    return undefined;
  }
}

/** Why the request's URL is unusable, or undefined when it is fine. */
function urlProblem(req: Request, trustProxy: boolean): string | undefined {
  // Absolute-form targets are for proxies, not for this server.
  if (!req.originalUrl.startsWith("/")) return "the request target must be a path";
  const forwardedHosts = trustProxy ? (req.get("x-forwarded-host") ?? "").split(",").map((host) => host.trim()) : [];
  if (!isAuthority(req.get("host") ?? "") || !forwardedHosts.every((host) => host === "" || isAuthority(host))) {
    return "the Host (and X-Forwarded-Host) header must name a host and, optionally, a port";
  }
  if (req.protocol !== "http" && req.protocol !== "https") return "X-Forwarded-Proto must be http or https";
  const path = decodedPath(req.originalUrl);
  if (path === undefined) return "the path is not percent-encoded UTF-8";
  if (UNPRINTABLE.test(path)) return "the path contains control characters";
  return undefined;
}

/**
 * React Router builds each request's URL from the protocol, the Host (behind a trusted proxy,
 * X-Forwarded-Host and X-Forwarded-Proto) and the path, and matches and renders the decoded
 * path: a value that makes no URL throws there, as a 500, and a line break in the path matches
 * no route at all. Such requests are malformed, so they are answered 400 before any of that.
 */
export function requireWellFormedUrls(trustProxy: boolean): RequestHandler {
  return (req, res, next) => {
    const problem = urlProblem(req, trustProxy);
    if (!problem) return next();
    res.status(400).type("text/plain").send(`Bad Request: ${problem}.`);
  };
}

/** The media type of a Content-Type header, lower-cased and without parameters. */
function mediaTypeOf(contentType: string): string {
  return contentType.split(";", 1)[0]!.trim().toLowerCase();
}

function hasBoundary(contentType: string): boolean {
  return contentType
    .split(";")
    .slice(1)
    .some((parameter) => /^\s*boundary\s*=\s*("[^"]+"|[^\s"]+)/i.test(parameter));
}

/**
 * Refuses, before any action reads it, a body that is not a form: JSON, plain text and raw
 * bytes would otherwise reach `request.formData()` and fail there as a server error.
 */
export function requireFormBodies(): RequestHandler {
  const accepted = new Set<string>(ACCEPTED_BODY_TYPES);
  const acceptedList = ACCEPTED_BODY_TYPES.join(" or ");
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const contentType = req.get("content-type") ?? "";
    const mediaType = mediaTypeOf(contentType);
    if (!accepted.has(mediaType)) {
      res
        .status(415)
        .type("text/plain")
        .send(`Unsupported Media Type: send the form as ${acceptedList}, not ${mediaType || "no Content-Type"}.`);
      return;
    }
    if (mediaType === "multipart/form-data" && !hasBoundary(contentType)) {
      res.status(400).type("text/plain").send("Bad Request: multipart/form-data needs a boundary parameter.");
      return;
    }
    next();
  };
}

/**
 * Where a POST comes from anywhere by design. RFC 8058's one-click unsubscribe is sent by the
 * reader's mail provider, from its own servers: no cookie, and no Origin or Referer naming this
 * site. The action there reads no cookie; the signed token in its address is its only authority,
 * so a form posted from another site can do nothing the token's holder could not do anyway
 * (docs/decisions/0014, "One-click unsubscribe").
 */
export const CROSS_ORIGIN_POST_PATHS: ReadonlySet<string> = new Set(["/unsubscribe", "/unsubscribe/replies"]);

/**
 * CSRF defence for every mutation, on top of SameSite=Lax cookies: the browser's
 * Origin (or, failing that, Referer) must name this site. A form posted from
 * anywhere else is refused before it reaches an action, except at CROSS_ORIGIN_POST_PATHS.
 */
export function requireSameOrigin(siteUrl: string): RequestHandler {
  const siteHost = new URL(siteUrl).host;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || CROSS_ORIGIN_POST_PATHS.has(req.path)) return next();
    const origin = hostOf(req.get("origin")) ?? hostOf(req.get("referer"));
    if (origin && (origin === siteHost || origin === req.get("host"))) return next();
    res.status(403).type("text/plain").send("Forbidden: this request did not come from this site.");
  };
}
