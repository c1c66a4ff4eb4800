import express, { type ErrorRequestHandler, type RequestHandler, Router } from "express";
import { BEACON_BODY_MAX, BEACON_PATH, beaconBodySchema } from "#domain/analytics.ts";
import { isDomainError } from "#domain/errors.ts";
import type { Analytics } from "./service.ts";
import { requireSameOrigin } from "../kernel/http-request-checks.ts";
import { carriesSignedCookie, SESSION_COOKIE_NAME } from "../kernel/session-cookie.ts";

/** Feeds whose fetches are counted per fetcher a day (docs/decisions/0016-analytics.md). */
export const FEED_PATHS: ReadonlySet<string> = new Set(["/rss.xml", "/atom.xml", "/feed.json"]);

const BEACON_TYPES = new Set(["text/plain", "application/json"]);

/** Beacons one address may send a minute: a reader opening two pages a second for a minute stays under. */
export const BEACON_RATE = { maxHits: 120, windowMs: 60_000 };
/** Addresses remembered at most; past that the window starts afresh, so a spray of addresses costs memory only up to here. */
const RATE_ADDRESSES_MAX = 100_000;

/**
 * A per-process limit, in memory. The project's limiter (server/kernel/rate-limit.ts) writes a row
 * per hit, which would cost the beacon its 2,000 events a second; with several app servers an
 * address gets this budget on each of them, which still bounds what one address can add.
 */
export function createBeaconLimiter(now: () => number, rate = BEACON_RATE) {
  let windowStart = now();
  let hits = new Map<string, number>();
  return {
    /** Seconds to wait, or 0 when the hit is within the address's budget. */
    hit(address: string): number {
      const at = now();
      if (at - windowStart >= rate.windowMs || hits.size >= RATE_ADDRESSES_MAX) {
        windowStart = at;
        hits = new Map();
      }
      const count = (hits.get(address) ?? 0) + 1;
      hits.set(address, count);
      return count > rate.maxHits ? Math.max(1, Math.ceil((windowStart + rate.windowMs - at) / 1000)) : 0;
    },
  };
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function optedOut(req: express.Request): boolean {
  return req.get("sec-gpc")?.trim() === "1" || req.get("dnt")?.trim() === "1";
}

function refuse(res: express.Response, status: number, message: string): void {
  res.status(status).type("text/plain").send(message);
}

export interface AnalyticsRoutesOptions {
  analytics: Analytics;
  sessionSecret: string;
  /** SITE_URL: a beacon from another site's page is refused, as every POST is. */
  siteUrl: string;
  now?: () => number;
  rate?: { maxHits: number; windowMs: number };
}

/** Notes each fetch of a feed; ahead of the page cache, which serves most of them. */
export function countFeedFetches(analytics: Analytics): RequestHandler {
  return (req, _res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && FEED_PATHS.has(req.path)) {
      // Not awaited: a feed is never slower for being counted, and a failure only loses the count.
      analytics
        .countFeedFetch({
          address: req.ip ?? "unknown",
          userAgent: req.get("user-agent") ?? "",
          optedOut: optedOut(req),
        })
        .catch((error: unknown) => req.log?.warn({ err: error }, "counting a feed fetch failed"));
    }
    next();
  };
}

/**
 * The beacon's endpoint, with the same-origin check every POST gets, ahead of the static files. It answers 204
 * whether or not it counted, so a reader's browser learns nothing from it; a malformed or
 * oversized body, or too many beacons from one address, is refused with a 4xx and one line.
 */
export function createBeaconRoute({
  analytics,
  sessionSecret,
  siteUrl,
  now = Date.now,
  rate,
}: AnalyticsRoutesOptions): Router {
  const router = Router();
  const limiter = createBeaconLimiter(now, rate);

  const checkBeacon: RequestHandler = (req, res, next) => {
    const retryAfter = limiter.hit(req.ip ?? "unknown");
    if (retryAfter > 0) {
      res.setHeader("Retry-After", String(retryAfter));
      return refuse(res, 429, "Too Many Requests: slow down.");
    }
    if (!BEACON_TYPES.has(mediaTypeOf(req.get("content-type")))) {
      return refuse(res, 415, "Unsupported Media Type: send the beacon as text/plain or application/json.");
    }
    next();
  };

  const countBeacon: RequestHandler = async (req, res, next) => {
    let json: unknown;
    try {
      json = JSON.parse(typeof req.body === "string" ? req.body : "");
    } catch {
      return refuse(res, 400, "Bad Request: the beacon's body is not JSON.");
    }
    const body = beaconBodySchema.safeParse(json);
    if (!body.success) return refuse(res, 400, "Bad Request: the beacon needs p (a path), and may have r and w.");
    try {
      await analytics.countView({
        body: body.data,
        address: req.ip ?? "unknown",
        userAgent: req.get("user-agent") ?? "",
        optedOut: optedOut(req),
        signedIn: carriesSignedCookie(req.get("cookie"), SESSION_COOKIE_NAME, sessionSecret),
      });
    } catch (error) {
      if (isDomainError(error, "DATABASE_UNAVAILABLE"))
        return refuse(res, 503, "Service Unavailable: try again later.");
      return next(error);
    }
    res.status(204).end();
  };

  // body-parser's own refusals (too large, a charset it cannot read, a broken stream) carry a 4xx.
  const answerBodyErrors: ErrorRequestHandler = (error: { status?: number; type?: string }, _req, res, next) => {
    if (error.type === "entity.too.large")
      return refuse(res, 413, `Payload Too Large: a beacon is at most ${BEACON_BODY_MAX} bytes.`);
    if (typeof error.status === "number" && error.status >= 400 && error.status < 500) {
      return refuse(res, error.status, "Bad Request: the beacon's body could not be read.");
    }
    next(error);
  };

  router.post(
    BEACON_PATH,
    requireSameOrigin(siteUrl),
    checkBeacon,
    express.text({ type: () => true, limit: BEACON_BODY_MAX }),
    countBeacon,
    answerBodyErrors,
  );
  return router;
}
