import type { RequestHandler, Response } from "express";
import { MEDIA_LIMITS, MEDIA_TOO_LARGE_MESSAGE } from "#domain/media.ts";
import { IMPORT_MAX_BYTES } from "#domain/portability.ts";
import { SUBSCRIBER_CSV_MAX_BYTES } from "#domain/subscribers.ts";
import { SAFE_METHODS } from "./http-request-checks.ts";

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

/** The logo and site icon forms of Settings, and an author's picture (Your account), with and without JavaScript. */
export const SITE_IMAGE_UPLOAD_PATHS = [
  "/admin/settings/images",
  "/admin/settings/images.data",
  "/admin/account/avatar",
  "/admin/account/avatar.data",
] as const;
/**
 * The Subscribers screen's CSV import, read into memory (at most SUBSCRIBER_CSV_MAX_BYTES): the
 * form's address, and the `.data` address React Router posts the same form to when it runs.
 */
export const SUBSCRIBER_CSV_UPLOAD_PATHS = ["/admin/subscribers/import", "/admin/subscribers/import.data"] as const;
/** The CSV, and room for the multipart framing and the consent box. */
export const SUBSCRIBER_CSV_UPLOAD_MAX_BYTES = SUBSCRIBER_CSV_MAX_BYTES + 64 * 1024;

/**
 * An activity sent to the blog's inboxes (server/fediverse/http.ts): a reply's note with its
 * HTML is a few kilobytes; this leaves room for long ones and refuses the rest unread.
 */
export const INBOX_MAX_BODY_BYTES = 256 * 1024;

/** A path's own body limit; `json` is the refusal for a script that reads its answers as JSON. */
export interface BodyLimit {
  maxBytes: number;
  describe: string;
  json?: { error: string };
}

const importLimit: BodyLimit = {
  maxBytes: IMPORT_UPLOAD_MAX_BYTES,
  describe: `imports may be at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB`,
};
const imageLimit: BodyLimit = {
  maxBytes: IMAGE_UPLOAD_MAX_BYTES,
  describe: MEDIA_TOO_LARGE_MESSAGE,
  json: { error: MEDIA_TOO_LARGE_MESSAGE },
};

const subscriberCsvLimit: BodyLimit = {
  maxBytes: SUBSCRIBER_CSV_UPLOAD_MAX_BYTES,
  describe: `subscriber CSVs may be at most ${SUBSCRIBER_CSV_MAX_BYTES / 1024 / 1024} MB`,
};

/** The paths allowed more than MAX_REQUEST_BODY_BYTES: a new upload adds its limit here. */
export const UPLOAD_BODY_LIMITS: Readonly<Record<string, BodyLimit>> = {
  ...Object.fromEntries(IMPORT_UPLOAD_PATHS.map((uploadPath) => [uploadPath, importLimit])),
  [IMAGE_UPLOAD_PATH]: imageLimit,
  ...Object.fromEntries(SITE_IMAGE_UPLOAD_PATHS.map((uploadPath) => [uploadPath, imageLimit])),
  ...Object.fromEntries(SUBSCRIBER_CSV_UPLOAD_PATHS.map((uploadPath) => [uploadPath, subscriberCsvLimit])),
};

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
      if (own?.json) {
        res.status(413).set("Connection", "close").json(own.json);
        return;
      }
      refuseTooLarge(res, own?.describe ?? `requests may be at most ${maxBytes / 1024 / 1024} MB`);
      return;
    }
    next();
  };
}

/** The one 413 in plain text: what was too large and the limit, then the connection closes. */
export function refuseTooLarge(res: Response, description: string): void {
  res.status(413).set("Connection", "close").type("text/plain").send(`Payload Too Large: ${description}.`);
}
