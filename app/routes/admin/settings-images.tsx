import { actorOf, requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, perform } from "~/lib/forms.server";
import { readMultipart } from "#server/media/index.ts";
import { formText } from "#domain/forms.ts";
import { MEDIA_LIMITS, MEDIA_TOO_LARGE_MESSAGE } from "#domain/media.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/settings-images";

const KINDS = ["logo", "siteIcon"] as const;
type Kind = (typeof KINDS)[number];
const isKind = (value: string): value is Kind => (KINDS as readonly string[]).includes(value);
const FLASH = {
  logo: { saved: "logo-saved", removed: "logo-removed" },
  siteIcon: { saved: "site-icon-saved", removed: "site-icon-removed" },
} as const;
/** The file, and room for the two small fields beside it. */
const LIMITS = { fileBytes: MEDIA_LIMITS.maxBytes, fields: 4, fieldBytes: 64 };
const SAVE_FAILED_MESSAGE = "The image could not be saved. Please try again.";

const refuse = (kind: string, message: string, status: number) =>
  formFailure({ kind }, { errors: { file: message } }, status);

/**
 * The logo and site icon forms of /admin/settings (docs/conventions.md, "A page with several
 * forms"): an upload posts multipart with `kind` and the `file`; removing one posts `kind` and
 * `intent=remove`. The icon's sizes are made once, here, by the settings service.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const { siteSettings } = context.get(appContext).services;
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) {
    const fields = await request.formData();
    const kind = formText(fields, "kind");
    if (!isKind(kind) || formText(fields, "intent") !== "remove") return refuse(kind, "Unknown request.", 400);
    const removed = await perform(context, () => siteSettings.removeImage(kind, actorOf(owner)), {
      values: { kind },
      field: "file",
      messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE },
    });
    if (!removed.ok) return removed.response;
    return redirectWithFlash(request, "/admin/settings", FLASH[kind].removed);
  }
  const body = await readMultipart(request, { limits: LIMITS });
  if (!body.readable) return refuse("", "The upload could not be read.", 400);
  const kind = formText(body.fields, "kind");
  if (!isKind(kind)) return refuse(kind, "Unknown request.", 400);
  if (body.tooLarge) return refuse(kind, MEDIA_TOO_LARGE_MESSAGE, 413);
  const bytes = body.file?.bytes;
  if (!body.file || !bytes || bytes.byteLength === 0) return refuse(kind, "Choose an image to upload.", 400);
  const declaredType = body.file.type;
  const saved = await perform(context, () => siteSettings.saveImage(kind, { bytes, declaredType }, actorOf(owner)), {
    values: { kind },
    field: "file",
    messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE },
  });
  if (!saved.ok) return saved.response;
  return redirectWithFlash(request, "/admin/settings", FLASH[kind].saved);
}

/** A page route, not a resource route: a post without JavaScript gets the settings page back, messages and all. */
export default function SettingsImages() {
  return null;
}
