import type { NextFunction, Request, Response } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "./logger.ts";

const NOT_IMPLEMENTED = 501;

/** One log line per request (assets left out), at the level its status deserves. */
export function logRequests(logger: Logger) {
  return pinoHttp({
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
  });
}

/**
 * A client's mistake is worth a warning, not an error; a missing page or a refused method is
 * everyday traffic from crawlers and scanners. 501 is a part of an API the blog chose not to
 * speak (Ghost's NotImplementedError, server/apps), asked for by any ordinary client: a
 * refused method too. Only the server's own failures are errors, including a response that
 * broke after its (successful) status was sent.
 */
export function logLevelForStatus(status: number, failed = false): "info" | "warn" | "error" {
  if (status === NOT_IMPLEMENTED) return failed ? "error" : "info";
  if (status >= 500) return "error";
  if (status >= 400) return status === 404 || status === 405 ? "info" : "warn";
  return failed ? "error" : "info";
}

function isBadRequest(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

/**
 * Only reached when something throws outside React Router (which has its own boundaries).
 * The request's own log line (pino-http) carries the error, so each failure is logged once.
 */
export function answerUnexpectedFailures() {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = isBadRequest(error) ? 400 : 500;
    res.err = error instanceof Error ? error : new Error(String(error));
    if (res.headersSent) return res.end();
    res
      .status(status)
      .type("text/plain")
      .send(status === 400 ? "Bad request" : "Something went wrong");
  };
}
