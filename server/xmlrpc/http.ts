// XML-RPC over HTTP at /xmlrpc.php, and the RSD document (/rsd.xml) every page's
// <link rel="EditURI"> names, through which MarsEdit and its kind find it. Answered by Express
// ahead of React Router: apps post XML with no Origin, which the site's form checks would refuse.
import express, { type ErrorRequestHandler, Router } from "express";
import { RSD_PATH, XMLRPC_PATH } from "#domain/apps.ts";
import { isDomainError } from "#domain/errors.ts";
import { escapeXml } from "#domain/escape.ts";
import { absoluteUrl } from "#domain/site-urls.ts";
import { MEDIA_LIMITS } from "#domain/media.ts";
import type { Logger } from "../kernel/logger.ts";
import { networkOf, type RateLimiter } from "../kernel/rate-limit.ts";
import { GhostValidationError } from "../apps/index.ts";
import { FAULT, readMethodCall, writeFault, writeResponse, XmlRpcFault } from "./codec.ts";
import { BLOG_ID, type XmlRpcMethods } from "./methods.ts";

/**
 * The largest call: an image at the media library's limit in base64 (4 bytes per 3), plus the
 * XML around it. Anything larger is refused before it is read.
 */
export const XMLRPC_MAX_BYTES = Math.ceil((MEDIA_LIMITS.maxBytes * 4) / 3) + 256 * 1024;
/** Calls one network may make a minute, whatever their key: parsing XML costs more than a page. */
export const XMLRPC_NETWORK_RATE = { maxHits: 300, windowMs: 60_000 };

export interface XmlRpcRoutesOptions {
  methods: XmlRpcMethods;
  rateLimiter: RateLimiter;
  siteUrl: string;
  logger?: Logger;
}

/** The RSD 1.0 document: the MetaWeblog API preferred, Blogger's and WordPress's calls alongside. */
export function rsdDocument(siteUrl: string): string {
  const api = escapeXml(absoluteUrl(siteUrl, XMLRPC_PATH));
  const home = escapeXml(absoluteUrl(siteUrl, "/"));
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsd version="1.0" xmlns="http://archipelago.phrasewise.com/rsd">
  <service>
    <engineName>Inkwell</engineName>
    <engineLink>${home}</engineLink>
    <homePageLink>${home}</homePageLink>
    <apis>
      <api name="MetaWeblog" blogID="${BLOG_ID}" preferred="true" apiLink="${api}" />
      <api name="Blogger" blogID="${BLOG_ID}" preferred="false" apiLink="${api}" />
      <api name="WordPress" blogID="${BLOG_ID}" preferred="false" apiLink="${api}" />
    </apis>
  </service>
</rsd>
`;
}

export function createXmlRpcRoutes({ methods, rateLimiter, siteUrl, logger }: XmlRpcRoutesOptions): Router {
  const router = Router();
  const rsd = rsdDocument(siteUrl);

  router.get(RSD_PATH, (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").type("application/rsd+xml").send(rsd);
  });

  const sendFault = (res: express.Response, code: number, message: string) =>
    res.status(200).set("Cache-Control", "no-store").type("text/xml").send(writeFault(code, message));

  router.all(XMLRPC_PATH, (req, res, next) => {
    if (req.method === "POST") return next();
    res.status(405).set("Allow", "POST").type("text/plain").send("XML-RPC answers POST requests only.");
  });
  // Counted before the body is read: a network over its calls is refused without reading 20 MB.
  const countCall: express.RequestHandler = (req, _res, next) => {
    rateLimiter.consume(`xmlrpc:${networkOf(req.ip ?? "unknown")}`, XMLRPC_NETWORK_RATE).then(() => next(), next);
  };
  router.post(XMLRPC_PATH, countCall, express.text({ type: () => true, limit: XMLRPC_MAX_BYTES }), (req, res, next) => {
    const address = req.ip ?? "unknown";
    (async () => {
      const body = typeof req.body === "string" ? req.body : "";
      if (!body.trim()) throw new XmlRpcFault(FAULT.invalidRequest, "Send an XML-RPC methodCall as the body");
      const call = await readMethodCall(body);
      const result = await methods.call(call.methodName, call.params, address);
      res.status(200).set("Cache-Control", "no-store").type("text/xml").send(writeResponse(result));
    })().catch(next);
  });

  /** Every refusal as an XML-RPC fault (HTTP 200, as the specification has it), in plain words. */
  const answerFaults: ErrorRequestHandler = (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof XmlRpcFault) return sendFault(res, error.code, error.message);
    if (isDomainError(error)) {
      if (error.code === "RATE_LIMITED") {
        res.set("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? 60))));
        return sendFault(res, FAULT.tooMany, "Too many requests: please wait and try again");
      }
      if (error.status >= 500)
        return sendFault(res, FAULT.serverError, "The blog cannot answer now. Please try again.");
      return sendFault(res, error.status, error.message);
    }
    const problem = (error as { type?: unknown; name?: unknown }).type;
    if (problem === "entity.too.large") {
      return sendFault(res, 413, `Requests may be at most ${Math.floor(XMLRPC_MAX_BYTES / 1024 / 1024)} MB`);
    }
    if (typeof problem === "string" && (problem.startsWith("encoding.") || problem.startsWith("charset."))) {
      return sendFault(res, FAULT.notWellFormed, "The request body's encoding is not supported");
    }
    if (error instanceof GhostValidationError) return sendFault(res, 400, (error as Error).message);
    (req.log ?? logger)?.error({ err: error }, "an XML-RPC call failed");
    sendFault(res, FAULT.serverError, "Something went wrong on the blog; please try again.");
  };
  router.use(XMLRPC_PATH, answerFaults);
  return router;
}
