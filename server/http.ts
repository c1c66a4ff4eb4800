import { randomBytes } from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { createCookie, RouterContextProvider, type ServerBuild } from "react-router";
import { appContext } from "../app/context.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";
import type { Services } from "./services/index.ts";

export const SESSION_COOKIE_NAME = "blog_session";
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/**
 * The largest form the blog accepts: a post body at its 200,000-character limit, written in
 * a three-byte script and percent-encoded (nine bytes a character), still fits.
 */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpAppOptions {
  config: Config;
  services: Services;
  logger: Logger;
  sessionSecret: string;
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Dev: Vite's middleware serves modules and assets. Production: the built client folder. */
  assets: { viteMiddleware: RequestHandler } | { clientDir: string };
}

function hostOf(url: string | undefined): string | undefined {
  if (!url || url === "null") return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/**
 * CSRF defence for every mutation, on top of SameSite=Lax cookies: the browser's
 * Origin (or, failing that, Referer) must name this site. A form posted from
 * anywhere else is refused before it reaches an action.
 */
export function requireSameOrigin(siteUrl: string): RequestHandler {
  const siteHost = new URL(siteUrl).host;
  return (req, res, next) => {
    if (!UNSAFE_METHODS.has(req.method)) return next();
    const origin = hostOf(req.get("origin")) ?? hostOf(req.get("referer"));
    if (origin && (origin === siteHost || origin === req.get("host"))) return next();
    res.status(403).type("text/plain").send("Forbidden: this request did not come from this site.");
  };
}

/**
 * Actions read whole form bodies into memory, so a body must declare its size and stay
 * under the limit. Browsers always send Content-Length with a form.
 */
export function limitRequestBodies(maxBytes: number): RequestHandler {
  return (req, res, next) => {
    if (!UNSAFE_METHODS.has(req.method)) return next();
    const declared = req.get("content-length");
    if (declared === undefined) {
      if (req.get("transfer-encoding") === undefined) return next();
      res.status(411).type("text/plain").send("Length Required: send the request with a Content-Length header.");
      return;
    }
    if (Number(declared) > maxBytes) {
      res
        .status(413)
        .set("Connection", "close")
        .type("text/plain")
        .send(`Payload Too Large: requests may be at most ${maxBytes / 1024 / 1024} MB.`);
      return;
    }
    next();
  };
}

export function createHttpApp(options: HttpAppOptions) {
  const { config, services, logger, sessionSecret } = options;
  const app = express();
  app.disable("x-powered-by");
  if (config.trustProxy) app.set("trust proxy", true);

  const sessionCookie = createCookie(SESSION_COOKIE_NAME, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.siteUrl.startsWith("https:"),
    path: "/",
    secrets: [sessionSecret],
  });
  const site = { siteUrl: config.siteUrl, aboutUrl: config.aboutUrl, sourceUrl: config.sourceUrl };
  const isDev = "viteMiddleware" in options.assets;

  app.use(
    pinoHttp({
      logger,
      quietReqLogger: true,
      autoLogging: { ignore: (req) => req.url?.startsWith("/assets/") === true },
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: isDev
        ? false
        : {
            directives: {
              "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
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
  app.use(compression());

  if ("viteMiddleware" in options.assets) {
    app.use(options.assets.viteMiddleware);
  } else {
    const { clientDir } = options.assets;
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }

  app.use(requireSameOrigin(config.siteUrl));
  app.use(limitRequestBodies(MAX_REQUEST_BODY_BYTES));

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: options.build,
      mode: isDev ? "development" : "production",
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(appContext, {
          services,
          site,
          logger: req.log,
          sessionCookie,
          cspNonce: res.locals.cspNonce as string,
          clientAddress: req.ip ?? "unknown",
        });
        return context;
      },
    }),
  );

  // Only reached when something above throws outside React Router (which has its own boundaries).
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = isBadRequest(error) ? 400 : 500;
    // A malformed URL from a client is its mistake, not ours: worth a warning, not an error.
    if (status === 400) req.log.warn({ err: error }, "bad request");
    else req.log.error({ err: error }, "unhandled request error");
    if (res.headersSent) return res.end();
    res
      .status(status)
      .type("text/plain")
      .send(status === 400 ? "Bad request" : "Something went wrong");
  });

  return app;
}

function isBadRequest(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}
