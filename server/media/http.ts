import express, { type NextFunction, type Request, type Response } from "express";
import { isDomainError } from "#domain/errors.ts";
import { MEDIA_PATH_PATTERN, MIME_BY_FORMAT, type ImageFormat } from "#domain/media.ts";
import type { Services } from "../composition.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The media files, outside React Router: answered straight from the media store, mounted ahead
 * of the page cache (which has nothing to add to them), never through page rendering. Uploads
 * are the admin's (app/lib/image-upload.server.ts).
 */
export function createMediaFileRoutes({ services }: { services: Services }) {
  const router = express.Router();
  router.use("/media", async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const match = MEDIA_PATH_PATTERN.exec(req.originalUrl.split("?")[0]!);
    if (!match) return res.status(404).type("text/plain").send("Not found");
    const [, hash, size, format] = match as unknown as [string, string, string, string];
    try {
      const file = await services.media.getFile(hash, size === "original" ? "original" : Number(size), format);
      if (!file) return res.status(404).type("text/plain").send("Not found");
      sendFile(req, res, Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), {
        etag: `"${hash}-${size}.${format}"`,
        type: MIME_BY_FORMAT[format as ImageFormat],
      });
    } catch (error) {
      answerOutage(error, res, next);
    }
  });

  return router;
}

/** A database outage while serving a file is a 503 with Retry-After (and one log line); anything else is a bug. */
export function answerOutage(error: unknown, res: Response, next: NextFunction): void {
  if (!isDomainError(error, "DATABASE_UNAVAILABLE")) return next(error);
  res.err = error.cause instanceof Error ? error.cause : error;
  res.status(503).set("Retry-After", String(error.retryAfterSeconds)).type("text/plain").send("Service Unavailable");
}

/**
 * A stored file with its ETag: revalidation (a list, `W/`, `*`) and a single range are answered.
 * Files at hashed names are immutable; `cacheControl` is for those at fixed addresses.
 * These are public images that other origins show (an email opened in a webmail, a reader's
 * app, a site linking a cover), so they are `cross-origin` where helmet sends every other
 * response `same-origin` (server/kernel/http-security-headers.ts).
 */
export function sendFile(
  req: Request,
  res: Response,
  bytes: Buffer,
  { etag, type, cacheControl = IMMUTABLE }: { etag: string; type: string; cacheControl?: string },
) {
  res.set({
    "Cache-Control": cacheControl,
    ETag: etag,
    "Accept-Ranges": "bytes",
    "Content-Type": type,
    "Cross-Origin-Resource-Policy": "cross-origin",
  });
  // Express's req.fresh says no to any request marked no-cache, yet a matching ETag is exactly
  // the revalidation such a request asks for; a file never changes under its ETag.
  const ifNoneMatch = req.get("if-none-match");
  if (ifNoneMatch?.split(",").some((tag) => [etag, "*", `W/${etag}`].includes(tag.trim()))) {
    return res.status(304).end();
  }

  const size = bytes.byteLength;
  const ifRange = req.get("if-range");
  const ranges = req.get("range") && (!ifRange || ifRange === etag) ? req.range(size, { combine: true }) : undefined;
  if (ranges === -1) {
    return res.status(416).set("Content-Range", `bytes */${size}`).type("text/plain").send("Range Not Satisfiable");
  }
  // A malformed header, or several ranges, get the whole file, as HTTP allows.
  if (ranges !== undefined && ranges !== -2 && ranges.length === 1) {
    const { start, end } = ranges[0]!;
    res.status(206).set("Content-Range", `bytes ${start}-${end}/${size}`);
    return res.end(req.method === "HEAD" ? undefined : bytes.subarray(start, end + 1));
  }
  res.status(200).set("Content-Length", String(size));
  return res.end(req.method === "HEAD" ? undefined : bytes);
}
