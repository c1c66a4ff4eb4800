import { requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, perform } from "~/lib/forms.server";
import { readMultipart } from "#server/media/index.ts";
import { formText } from "#domain/forms.ts";
import { MEDIA_LIMITS, MEDIA_TOO_LARGE_MESSAGE } from "#domain/media.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/account-avatar";

/** The file, and room for a small field beside it. */
const LIMITS = { fileBytes: MEDIA_LIMITS.maxBytes, fields: 2, fieldBytes: 64 };
const SAVE_FAILED_MESSAGE = "The picture could not be saved. Please try again.";

const refuse = (message: string, status: number) => formFailure({}, { errors: { file: message } }, status);

/**
 * The author picture form of /admin/account: an upload posts multipart with the `file`, cut
 * square by the media pipeline (server/media/site-images.ts); removing posts `intent=remove`.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { users } = context.get(appContext).services;
  const failed = { values: {}, field: "file" as const, messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE } };
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) {
    if (formText(await request.formData(), "intent") !== "remove") return refuse("Unknown request.", 400);
    const removed = await perform(context, () => users.removeAvatar(user), failed);
    if (!removed.ok) return removed.response;
    return redirectWithFlash(request, "/admin/account", "avatar-removed");
  }
  const body = await readMultipart(request, { limits: LIMITS });
  if (!body.readable) return refuse("The upload could not be read.", 400);
  if (body.tooLarge) return refuse(MEDIA_TOO_LARGE_MESSAGE, 413);
  const bytes = body.file?.bytes;
  if (!body.file || !bytes || bytes.byteLength === 0) return refuse("Choose an image to upload.", 400);
  const declaredType = body.file.type;
  const saved = await perform(context, () => users.saveAvatar(user, { bytes, declaredType }), failed);
  if (!saved.ok) return saved.response;
  return redirectWithFlash(request, "/admin/account", "avatar-saved");
}

/** A page route, not a resource route: a post without JavaScript gets the account page back, messages and all. */
export default function AccountAvatar() {
  return null;
}
