import busboy from "busboy";
import express, { type Request, type Response } from "express";
import { isDomainError } from "#domain/errors.ts";
import { MEDIA_LIMITS, MEDIA_PATH_PATTERN, MIME_BY_FORMAT, type ImageFormat } from "#domain/media.ts";
import { TOO_LARGE_MESSAGE } from "./media/process.ts";
import type { Services } from "./services/index.ts";
import type { SessionCookie } from "./session-cookie.ts";

export const UPLOAD_PATH = "/admin/media";
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Room for the multipart boundaries and headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
export const UPLOAD_FAILED_MESSAGE = "Failed to upload the image. Please try again.";

function sendError(res: Response, status: number, message: string) {
  if (status === 413) res.set("Connection", "close");
  res.status(status).json({ error: message });
}

/**
 * Image uploads and files, outside React Router: uploads stream through busboy with their
 * own 15 MB limit (the 4 MB form limit stays for everything else), and files are answered
 * straight from the media store, never through page rendering or its cache.
 */
export function createMediaUploadRoutes({
  services,
  sessionCookie,
}: {
  services: Services;
  sessionCookie: SessionCookie;
}) {
  const router = express.Router();

  router.post(UPLOAD_PATH, async (req, res, next) => {
    // Other posts to this page (deleting from the library) are ordinary forms for its action.
    if (!req.is("multipart/form-data")) return next();
    try {
      const token = await sessionCookie.read(
        new Request("http://local/", { headers: { cookie: req.get("cookie") ?? "" } }),
      );
      const user = token ? await services.auth.getSessionUser(token) : undefined;
      if (!user) return sendError(res, 401, "Sign in to upload images.");

      const declared = Number(req.get("content-length") ?? 0);
      if (declared > MEDIA_LIMITS.maxBytes + MULTIPART_OVERHEAD_BYTES) return sendError(res, 413, TOO_LARGE_MESSAGE);

      const file = await readUploadedFile(req);
      if ("error" in file) return sendError(res, file.status, file.error);
      const uploaded = await services.media.upload({ ...file, uploadedBy: user.id });
      res.status(201).json({ media: uploaded });
    } catch (error) {
      if (isDomainError(error, "DATABASE_UNAVAILABLE")) {
        res.err = error.cause instanceof Error ? error.cause : error;
        return sendError(res, 503, UPLOAD_FAILED_MESSAGE);
      }
      if (isDomainError(error)) return sendError(res, error.status, error.message);
      next(error);
    }
  });

  return router;
}

/** The files themselves: mounted ahead of the page cache, which has nothing to add to them. */
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
      if (!isDomainError(error, "DATABASE_UNAVAILABLE")) return next(error);
      res.err = error.cause instanceof Error ? error.cause : error;
      res
        .status(503)
        .set("Retry-After", String(error.retryAfterSeconds))
        .type("text/plain")
        .send("Service Unavailable");
    }
  });

  return router;
}

function sendFile(req: Request, res: Response, bytes: Buffer, { etag, type }: { etag: string; type: string }) {
  res.set({ "Cache-Control": IMMUTABLE, ETag: etag, "Accept-Ranges": "bytes", "Content-Type": type });
  // Express's req.fresh says no to any request marked no-cache, yet a matching ETag is exactly
  // the revalidation such a request asks for; these files never change under their name.
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

type ReadFile = { bytes: Buffer; name: string; declaredType: string } | { status: number; error: string };

/** The one file of a multipart upload, read through a parser that stops at the size limit. */
function readUploadedFile(req: Request): Promise<ReadFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: MEDIA_LIMITS.maxBytes, fields: 4, fieldSize: 1024, parts: 5 },
      });
    } catch {
      resolve({ status: 400, error: "The upload could not be read." });
      return;
    }
    let result: ReadFile | undefined;
    parser.on("file", (_field, stream, info) => {
      const chunks: Buffer[] = [];
      // A part cut short errors on its own stream too; without a listener that would end the process.
      stream.on("error", () => {
        result = { status: 400, error: "The upload could not be read." };
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => {
        result = { status: 413, error: TOO_LARGE_MESSAGE };
        stream.resume();
      });
      stream.on("close", () => {
        result ??= { bytes: Buffer.concat(chunks), name: info.filename ?? "image", declaredType: info.mimeType };
      });
    });
    parser.on("error", () => resolve({ status: 400, error: "The upload could not be read." }));
    parser.on("close", () => resolve(result ?? { status: 400, error: "Choose an image to upload." }));
    req.on("error", reject);
    req.pipe(parser);
  });
}
