import { href, type MiddlewareFunction } from "react-router";
import { MEDIA_LIMITS, MEDIA_TOO_LARGE_MESSAGE } from "#domain/media.ts";
import { appContext, userContext } from "#server/request-context.ts";
import { readMultipart } from "#server/media/index.ts";
import { answerDomainErrors, type DomainFailure } from "./route-errors.server";

/** The editor's upload script and the media library share the library's address. */
const IMAGE_UPLOAD_PATH = href("/admin/media");
const UPLOAD_FAILED_MESSAGE = "Failed to upload the image. Please try again.";
/** The file, and room for a field or two around it; the editor sends only the file. */
const IMAGE_LIMITS = { fileBytes: MEDIA_LIMITS.maxBytes, fields: 4, fieldBytes: 1024 };

function refuse(status: number, message: string) {
  // An oversized upload may still be arriving: the connection is not kept for another request.
  return Response.json({ error: message }, { status, headers: status === 413 ? { Connection: "close" } : {} });
}

function isImageUpload(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return (
    request.method === "POST" &&
    pathname.replace(/\/$/, "") === IMAGE_UPLOAD_PATH &&
    /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")
  );
}

/**
 * An image upload from the editor, answered as JSON for its script (`{ media }` or `{ error }`),
 * as middleware: an address is either a page or a resource in React Router, and the library
 * page owns /admin/media. It runs in the admin layout ahead of the sign-in redirect, because a
 * script is answered 401, not sent to the sign-in page; deleting from the library is the page's
 * own form and action. The session, same-origin check, size limit and error mapping are every
 * action's (root middleware, server/http.ts, route-errors.server.ts).
 */
export const answerImageUpload: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (!isImageUpload(request)) return next();
  const user = context.get(userContext);
  if (!user) return refuse(401, "Sign in to upload images.");
  const body = await readMultipart(request, { limits: IMAGE_LIMITS });
  if (!body.readable) return refuse(400, "The upload could not be read.");
  if (body.tooLarge) return refuse(413, MEDIA_TOO_LARGE_MESSAGE);
  const { file } = body;
  const bytes = file?.bytes;
  if (!file || !bytes) return refuse(400, "Choose an image to upload.");
  const { media } = context.get(appContext).services;
  const answer = (failure: DomainFailure) => refuse(failure.status, failure.message);
  return answerDomainErrors(
    context,
    { messages: { DATABASE_UNAVAILABLE: UPLOAD_FAILED_MESSAGE }, answer },
    async () => {
      const uploaded = await media.upload({ bytes, name: file.name, declaredType: file.type, uploadedBy: user.id });
      return Response.json({ media: uploaded }, { status: 201 });
    },
  );
};
