import express, { type RequestHandler, Router } from "express";
import { isDomainError } from "#domain/errors.ts";
import { WEBMENTION_PATH } from "#domain/webmention.ts";
import type { WebmentionService } from "./service.ts";
import { readFormBody } from "../kernel/http-bodies.ts";

/** A Webmention request is two URLs; anything much longer is not one. */
const BODY_LIMIT_BYTES = 8 * 1024;
/** A post's page, where the endpoint is announced by a Link header (cached pages too: this runs ahead of the cache). */
const POST_PAGE = /^\/blog\/[^/]+\/?$/;

function answer(res: express.Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).type("text/plain").send(message);
}

/**
 * The receiving endpoint, `POST /webmention` with `source` and `target` as a form
 * (https://www.w3.org/TR/webmention/#receiving-webmentions): 202 once queued, 400 with the reason,
 * 429 with Retry-After past the source host's budget. Mounted ahead of the same-origin check,
 * since other sites post here; and each post page's `Link` header naming it.
 */
export function serveWebmention(webmention: WebmentionService): Router {
  const router = Router();
  router.use((req, res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && POST_PAGE.test(req.path)) {
      res.setHeader("Link", `<${WEBMENTION_PATH}>; rel="webmention"`);
    }
    next();
  });
  const readForm = readFormBody({ limit: BODY_LIMIT_BYTES, parameterLimit: 10 });
  const receive: RequestHandler = async (req, res, next) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const source = typeof body.source === "string" ? body.source : "";
    const target = typeof body.target === "string" ? body.target : "";
    if (source === "" || target === "") return answer(res, 400, "Send a form with both source and target URLs.");
    try {
      await webmention.receive({ source, target });
      answer(res, 202, "Accepted: the mention will be checked shortly.");
    } catch (error) {
      if (isDomainError(error, "RATE_LIMITED")) {
        const seconds = String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1)));
        return answer(res, 429, "Too many mentions from this site; try again later.", { "retry-after": seconds });
      }
      if (isDomainError(error, "WEBMENTION_REFUSED")) return answer(res, 400, error.message);
      next(error);
    }
  };
  router.post(WEBMENTION_PATH, (req, res, next) => {
    if (!req.is("application/x-www-form-urlencoded")) {
      return answer(res, 400, "Send source and target as application/x-www-form-urlencoded.");
    }
    readForm(req, res, (error?: unknown) => {
      if (error) return answer(res, 413, "The request is too large for a Webmention.");
      void receive(req, res, next);
    });
  });
  return router;
}
