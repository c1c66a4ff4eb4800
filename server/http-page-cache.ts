import type { RequestHandler } from "express";
import { isDomainError } from "#domain/errors.ts";
import type { PageCache } from "./kernel/page-cache.ts";
import type { Services } from "./composition.ts";
import { carriesSignedCookie, PENDING_COMMENTS_COOKIE_NAME, SESSION_COOKIE_NAME } from "./kernel/session-cookie.ts";

/** The cookies that make a page a reader's own (signed in, or with comments held for them). */
const PERSONAL_COOKIE_NAMES = [SESSION_COOKIE_NAME, PENDING_COMMENTS_COOKIE_NAME];

/**
 * Serves anonymous readers from the page cache. Only a cookie this server signed makes a page
 * a reader's own: anyone can send `blog_session=x`.
 */
export function serveCachedPages(pageCache: PageCache, sessionSecret: string): RequestHandler {
  return pageCache.middleware((req) =>
    PERSONAL_COOKIE_NAMES.some((name) => carriesSignedCookie(req.get("cookie"), name, sessionSecret)),
  );
}

/**
 * Runs only when the cache missed: a page stored now stops being served once a scheduled
 * post goes live, since that changes lists and related cards without any write.
 */
export function expirePagesAtNextScheduledPost(services: Services): RequestHandler {
  return async (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") {
      const nextChange = await services.posts.nextScheduledPublishAt().catch((error: unknown) => {
        // The page's own queries meet the same outage and answer it with the route's message.
        if (isDomainError(error, "DATABASE_UNAVAILABLE")) return null;
        throw error;
      });
      if (nextChange) res.locals.pageExpiresAt = Date.parse(nextChange);
    }
    next();
  };
}
