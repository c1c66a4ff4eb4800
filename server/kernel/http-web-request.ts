import { Readable } from "node:stream";
import type { Request } from "express";

/**
 * A web Request over Express's, streaming its body, for the media library's one multipart reader
 * (the Ghost Admin API's and Micropub's uploads read it the way the admin's upload route does).
 */
export function asWebRequest(req: Request): globalThis.Request {
  return new globalThis.Request(`http://localhost${req.originalUrl}`, {
    method: req.method,
    headers: { "content-type": req.get("content-type") ?? "" },
    body: Readable.toWeb(req) as ReadableStream,
    duplex: "half",
  } as RequestInit);
}
