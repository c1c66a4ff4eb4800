import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type RequestHandler } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { Config } from "./kernel/config.ts";
import { type BlogFederation, serveFederation } from "./fediverse/index.ts";
import { serveWebmention } from "./webmention/index.ts";
import { countFeedFetches, createBeaconRoute } from "./analytics/index.ts";
import { createGhostApiRoutes, GHOST_API_PATHS } from "./apps/index.ts";
import { MICROPUB_DISCOVERY_LINKS } from "#domain/micropub.ts";
import { createIndieAuthRoutes, createMicropubRoutes } from "./micropub/index.ts";
import { createXmlRpcRoutes } from "./xmlrpc/index.ts";
import { limitRequestBodies, MAX_REQUEST_BODY_BYTES, UPLOAD_BODY_LIMITS } from "./kernel/http-body-limits.ts";
import { answerUnexpectedFailures, logRequests } from "./kernel/http-logging.ts";
import { expirePagesAtNextScheduledPost, serveCachedPages } from "./http-page-cache.ts";
import {
  refuseOtherMethods,
  requireFormBodies,
  requireSameOrigin,
  requireWellFormedUrls,
} from "./kernel/http-request-checks.ts";
import { denyBrowserFeatures, sendSecurityHeaders } from "./kernel/http-security-headers.ts";
import type { Logger } from "./kernel/logger.ts";
import { createMediaFileRoutes, createSiteIconRoutes } from "./media/index.ts";
import { type PageCache, tagPage } from "./kernel/page-cache.ts";
import { appContext } from "./request-context.ts";
import type { Services } from "./composition.ts";
import {
  createDeviceCookie,
  createPendingCommentsCookie,
  createSessionCookie,
  createTwoFactorCookie,
} from "./kernel/session-cookie.ts";

export { refuseConnect } from "./kernel/http-request-checks.ts";

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
  /** The blog's actor, its posts as Articles and its inbox (server/fediverse/federation.ts). */
  fediverse: BlogFederation;
}

/**
 * The Express app in front of React Router, in the order a request meets it: logging and
 * headers, the checks that refuse a malformed request, static files and images, the page cache,
 * the checks on a mutation's origin and body, then React Router with the request's context.
 */
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

  app.use(logRequests(logger));
  app.use(sendSecurityHeaders({ siteUrl: config.siteUrl, isDev }));
  app.use(denyBrowserFeatures());
  app.use(compression());
  app.use(refuseOtherMethods(GHOST_API_PATHS));
  app.use(requireWellFormedUrls(trustProxy));
  // Apps send JSON, PUT and DELETE with no Origin: their APIs come before the site's own checks,
  // each request authenticated by an app key (server/apps/README.md).
  app.use(createGhostApiRoutes(services.apps));
  app.use(
    createMicropubRoutes({
      micropub: services.micropub.service,
      authenticate: services.micropub.authenticate,
      links: MICROPUB_DISCOVERY_LINKS,
    }),
  );
  app.use(createIndieAuthRoutes(services.micropub.indieAuth));
  app.use(
    createXmlRpcRoutes({
      methods: services.xmlrpc,
      rateLimiter: services.rateLimiter,
      siteUrl: config.siteUrl,
      logger,
    }),
  );
  // Ahead of the static files and the page cache, which a beacon never needs; it checks its origin itself.
  app.use(createBeaconRoute({ analytics: services.analytics, sessionSecret, siteUrl: config.siteUrl }));

  if ("viteMiddleware" in options.assets) {
    app.use(options.assets.viteMiddleware);
  } else {
    const { clientDir } = options.assets;
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }

  app.use(serveFederation({ fediverse: options.fediverse, posts: services.fediverse, siteUrl: config.siteUrl }));
  app.use(serveWebmention(services.webmention));
  app.use(createMediaFileRoutes({ services }));
  app.use(createSiteIconRoutes({ services }));
  app.use(countFeedFetches(services.analytics));
  app.use(serveCachedPages(options.pageCache, sessionSecret));
  app.use(expirePagesAtNextScheduledPost(services));
  app.use(requireSameOrigin(config.siteUrl));
  app.use(requireFormBodies());
  app.use(limitRequestBodies(MAX_REQUEST_BODY_BYTES, UPLOAD_BODY_LIMITS));

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: options.build,
      mode: isDev ? "development" : "production",
      async getLoadContext(req, res) {
        const context = new RouterContextProvider();
        // Settings saved on any app server reach this one within a second (server/site/settings.ts).
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
          federation: options.fediverse.requestHandle,
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

  app.use(answerUnexpectedFailures());

  return app;
}
