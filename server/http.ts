import type { IncomingMessage } from "node:http";
import path from "node:path";
import type { Duplex } from "node:stream";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { MEDIA_LIMITS } from "#domain/media.ts";
import { IMPORT_MAX_BYTES } from "#domain/portability.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";
import { TOO_LARGE_MESSAGE } from "./media/process.ts";
import { createMediaFileRoutes } from "./media-http.ts";
import { type PageCache, tagPage } from "./page-cache.ts";
import { appContext } from "./request-context.ts";
import { isDomainError } from "#domain/errors.ts";
import type { Services } from "./services/index.ts";
import {
  carriesSignedCookie,
  createDeviceCookie,
  createPendingCommentsCookie,
  createSessionCookie,
  createTwoFactorCookie,
  PENDING_COMMENTS_COOKIE_NAME,
  SESSION_COOKIE_NAME,
} from "./session-cookie.ts";

/** Every method the blog answers; anything else (TRACE, PUT, DELETE, WebDAV…) is refused with 405. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;
const SAFE_METHODS = new Set(["GET", "HEAD"]);
/**
 * The bodies a POST may carry: the two encodings of an HTML form. Actions read nothing else,
 * so a route that needs another type (an image upload, say) is a deliberate addition here.
 */
export const ACCEPTED_BODY_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"] as const;
/**
 * The largest form the blog accepts: a post body at its 200,000-character limit, written in
 * a three-byte script and percent-encoded (nine bytes a character), still fits.
 */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;
/**
 * The admin's import upload (the Tools page's form, and the JSON twin its upload script
 * posts to): the only paths that take a larger body. Their action streams the file to disk
 * (app/lib/import-upload.server.ts) rather than reading it into memory.
 */
export const IMPORT_UPLOAD_PATHS = ["/admin/tools/import", "/admin/tools/import.json"] as const;
/** The file at IMPORT_MAX_BYTES, plus room for the multipart framing and the option fields. */
export const IMPORT_UPLOAD_MAX_BYTES = IMPORT_MAX_BYTES + 1024 * 1024;
/**
 * The editor's image upload (app/lib/image-upload.server.ts), which shares the media library's
 * address: a file up to MEDIA_LIMITS.maxBytes, read by the same streaming reader as imports.
 */
export const IMAGE_UPLOAD_PATH = "/admin/media";
/** Room for the multipart boundaries and headers around the image itself. */
export const IMAGE_UPLOAD_MAX_BYTES = MEDIA_LIMITS.maxBytes + 64 * 1024;

export interface HttpAppOptions {
  config: Config;
  services: Services;
  logger: Logger;
  sessionSecret: string;
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Dev: Vite's middleware serves modules and assets. Production: the built client folder. */
  assets: { viteMiddleware: RequestHandler } | { clientDir: string };
  /** Anonymous pages served from memory; also hashes inline scripts into every page's CSP. */
  pageCache: PageCache;
}

function hostOf(url: string | undefined): string | undefined {
  if (!url || url === "null") return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** A method outside ALLOWED_METHODS never reaches React Router, which would treat PUT or DELETE as an action. */
export function refuseOtherMethods(): RequestHandler {
  const allowed = new Set<string>(ALLOWED_METHODS);
  const allowHeader = ALLOWED_METHODS.join(", ");
  return (req, res, next) => {
    if (allowed.has(req.method)) return next();
    res
      .status(405)
      .set("Allow", allowHeader)
      .type("text/plain")
      .send(`Method Not Allowed: this site answers ${allowHeader}.`);
  };
}

/**
 * Browser features no page of the blog uses, refused to the page and anything it embeds.
 * Left out: clipboard-write (the admin's "Copy URL" buttons) and fullscreen (embedded video).
 * Only features Chromium knows: it reports an unknown one (interest-cohort, the withdrawn
 * FLoC, now browsing-topics) as an error on every page.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer",
  "browsing-topics",
  "camera",
  "display-capture",
  "geolocation",
  "gyroscope",
  "hid",
  "idle-detection",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "serial",
  "usb",
  "xr-spatial-tracking",
]
  .map((feature) => `${feature}=()`)
  .join(", ");

/** Sends PERMISSIONS_POLICY on every response, refusals and cached pages included. */
export function denyBrowserFeatures(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    next();
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
 * CSRF defence for every mutation, on top of SameSite=Lax cookies: the browser's
 * Origin (or, failing that, Referer) must name this site. A form posted from
 * anywhere else is refused before it reaches an action.
 */
export function requireSameOrigin(siteUrl: string): RequestHandler {
  const siteHost = new URL(siteUrl).host;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = hostOf(req.get("origin")) ?? hostOf(req.get("referer"));
    if (origin && (origin === siteHost || origin === req.get("host"))) return next();
    res.status(403).type("text/plain").send("Forbidden: this request did not come from this site.");
  };
}

/** A path's own body limit; `json` is the refusal for a script that reads its answers as JSON. */
export interface BodyLimit {
  maxBytes: number;
  describe: string;
  json?: { error: string };
}

/**
 * Actions read whole form bodies into memory, so a body must declare its size and stay
 * under the limit. Browsers always send Content-Length with a form. A path in `larger`
 * (the import and image uploads) has its own limit; the refusal comes before a byte of the
 * body is read.
 */
export function limitRequestBodies(
  defaultMaxBytes: number,
  larger: Readonly<Record<string, BodyLimit>> = {},
): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const own = Object.hasOwn(larger, req.path) ? larger[req.path] : undefined;
    const maxBytes = own?.maxBytes ?? defaultMaxBytes;
    const declared = req.get("content-length");
    if (declared === undefined) {
      if (req.get("transfer-encoding") === undefined) return next();
      res.status(411).type("text/plain").send("Length Required: send the request with a Content-Length header.");
      return;
    }
    if (Number(declared) > maxBytes) {
      res.status(413).set("Connection", "close");
      if (own?.json) {
        res.json(own.json);
        return;
      }
      res
        .type("text/plain")
        .send(`Payload Too Large: ${own?.describe ?? `requests may be at most ${maxBytes / 1024 / 1024} MB`}.`);
      return;
    }
    next();
  };
}

export function createHttpApp(options: HttpAppOptions) {
  const { config, services, logger, sessionSecret } = options;
  const app = express();
  app.disable("x-powered-by");
  // A number of hops or the proxies' addresses, never `true`: the leftmost X-Forwarded-For
  // entries are the client's own words (docs/decisions/0012-proxy-trust.md).
  const trustProxy = config.trustProxy !== 0;
  if (trustProxy) app.set("trust proxy", config.trustProxy);

  const cookieOptions = { secret: sessionSecret, secure: config.siteUrl.startsWith("https:") };
  const sessionCookie = createSessionCookie(cookieOptions);
  const deviceCookie = createDeviceCookie(cookieOptions);
  const twoFactorCookie = createTwoFactorCookie(cookieOptions);
  const pendingCommentsCookie = createPendingCommentsCookie(cookieOptions);
  const isDev = "viteMiddleware" in options.assets;

  app.use(
    pinoHttp({
      logger,
      quietReqLogger: true,
      autoLogging: { ignore: (req) => req.url?.startsWith("/assets/") === true },
      customLogLevel: (_req, res, error) => logLevelForStatus(res.statusCode, Boolean(error ?? res.err)),
      // pino-http invents an error ("failed with status code 500") for a 5xx that carries none;
      // its stack points into pino-http, so only a real cause (res.err) is worth logging.
      customErrorObject: (_req, res, _error, line) => (res.err ? line : { ...line, err: undefined }),
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  app.use(
    helmet({
      contentSecurityPolicy: isDev
        ? false
        : {
            directives: {
              // The page cache adds the sha256 of each inline script of the page (docs/decisions/0005).
              "script-src": ["'self'"],
              "style-src": ["'self'", "'unsafe-inline'"],
              "img-src": ["'self'", "data:", "https:", "http:"],
              "form-action": ["'self'"],
              "upgrade-insecure-requests": config.siteUrl.startsWith("https:") ? [] : null,
            },
          },
      // Chromium sends `Origin: null` on form posts under `no-referrer`, which would fail our origin check.
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      strictTransportSecurity: config.siteUrl.startsWith("https:"),
    }),
  );
  app.use(denyBrowserFeatures());
  app.use(compression());
  app.use(refuseOtherMethods());
  app.use(requireWellFormedUrls(trustProxy));

  if ("viteMiddleware" in options.assets) {
    app.use(options.assets.viteMiddleware);
  } else {
    const { clientDir } = options.assets;
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }

  app.use(createMediaFileRoutes({ services }));
  // Only a cookie this server signed makes a page a reader's own: anyone can send `blog_session=x`.
  const personalCookieNames = [SESSION_COOKIE_NAME, PENDING_COMMENTS_COOKIE_NAME];
  app.use(
    options.pageCache.middleware((req) =>
      personalCookieNames.some((name) => carriesSignedCookie(req.get("cookie"), name, sessionSecret)),
    ),
  );
  // Runs only when the cache missed: a page stored now stops being served once a scheduled
  // post goes live, since that changes lists and related cards without any write.
  app.use(async (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") {
      const nextChange = await services.posts.nextScheduledPublishAt().catch((error: unknown) => {
        // The page's own queries meet the same outage and answer it with the route's message.
        if (isDomainError(error, "DATABASE_UNAVAILABLE")) return null;
        throw error;
      });
      if (nextChange) res.locals.pageExpiresAt = Date.parse(nextChange);
    }
    next();
  });
  app.use(requireSameOrigin(config.siteUrl));
  app.use(requireFormBodies());
  const importLimit: BodyLimit = {
    maxBytes: IMPORT_UPLOAD_MAX_BYTES,
    describe: `imports may be at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB`,
  };
  const imageLimit: BodyLimit = {
    maxBytes: IMAGE_UPLOAD_MAX_BYTES,
    describe: TOO_LARGE_MESSAGE,
    json: { error: TOO_LARGE_MESSAGE },
  };
  app.use(
    limitRequestBodies(MAX_REQUEST_BODY_BYTES, {
      ...Object.fromEntries(IMPORT_UPLOAD_PATHS.map((uploadPath) => [uploadPath, importLimit])),
      [IMAGE_UPLOAD_PATH]: imageLimit,
    }),
  );

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: options.build,
      mode: isDev ? "development" : "production",
      async getLoadContext(req, res) {
        const context = new RouterContextProvider();
        // Settings saved on any app server reach this one within a second (services/site-settings.ts).
        const site = { ...(await services.siteSettings.current()), siteUrl: config.siteUrl };
        context.set(appContext, {
          services,
          site,
          logger: req.log,
          sessionCookie,
          deviceCookie,
          twoFactorCookie,
          pendingCommentsCookie,
          tagPage: (tags) => tagPage(res, tags),
          clientAddress: req.ip ?? "unknown",
          // pino-http logs `res.err` in place of its own "failed with status code" error.
          recordFailure: (error) => {
            res.err = error instanceof Error ? error : new Error(String(error));
          },
        });
        return context;
      },
    }),
  );

  // Only reached when something above throws outside React Router (which has its own boundaries).
  // The request's own log line (pino-http) carries the error, so each failure is logged once.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = isBadRequest(error) ? 400 : 500;
    res.err = error instanceof Error ? error : new Error(String(error));
    if (res.headersSent) return res.end();
    res
      .status(status)
      .type("text/plain")
      .send(status === 400 ? "Bad request" : "Something went wrong");
  });

  return app;
}

/**
 * A client's mistake is worth a warning, not an error; a missing page or a refused method is
 * everyday traffic from crawlers and scanners. Only the server's own failures are errors,
 * including a response that broke after its (successful) status was sent.
 */
export function logLevelForStatus(status: number, failed = false): "info" | "warn" | "error" {
  if (status >= 500) return "error";
  if (status >= 400) return status === 404 || status === 405 ? "info" : "warn";
  return failed ? "error" : "info";
}

function isBadRequest(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}
