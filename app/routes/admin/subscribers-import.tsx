import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { data, redirect } from "react-router";
import { requireOwner } from "~/lib/auth.server";
import { formFailure, perform, UNREADABLE_FORM_MESSAGE } from "~/lib/forms.server";
import { readMultipart } from "#server/media/index.ts";
import type { RouteErrorData } from "~/lib/route-errors.server";
import { validateForm } from "#domain/forms.ts";
import {
  importSubscribersForm,
  SUBSCRIBER_CSV_MAX_BYTES,
  SUBSCRIBER_CSV_TOO_LARGE_MESSAGE,
} from "#domain/subscribers.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribers-import";

/** The CSV, streamed to a temporary file (server/kernel/http-body-limits.ts refuses a larger body first), and the consent box. */
const CSV_LIMITS = { fileBytes: SUBSCRIBER_CSV_MAX_BYTES, fields: 5, fieldBytes: 1024 };

/**
 * The CSV import of /admin/subscribers. The file is checked here (a refusal renders the page at
 * this address with why); then the import goes on in the background, which removes the file when
 * it ends, and the answer is the Subscribers page, which shows its progress and then its report.
 * A proxy's read timeout never cuts a long import short.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const { services, logger } = context.get(appContext);
  const directory = await mkdtemp(path.join(tmpdir(), "inkwell-subscribers-"));
  const removeUpload = () => rm(directory, { recursive: true, force: true });
  let started = false;
  try {
    const file = path.join(directory, "upload.csv");
    const body = await readMultipart(request, { limits: CSV_LIMITS, saveFileTo: file });
    if (!body.readable) throw data<RouteErrorData>({ message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
    const values = importSubscribersForm.read(body.fields);
    if (body.tooLarge) return formFailure(values, { errors: { file: SUBSCRIBER_CSV_TOO_LARGE_MESSAGE } }, 413);
    const parsed = validateForm(importSubscribersForm, values);
    if (!parsed.success) return formFailure(values, { errors: parsed.errors }, 400);
    const source = body.file ? { path: file } : "";
    const imported = await perform(
      context,
      () =>
        services.subscribers.startImport(source, {
          consent: parsed.data.consent,
          startedBy: owner.username,
          onError: (error) => logger.error({ err: error }, "importing subscribers failed"),
          afterwards: removeUpload,
        }),
      { values, field: "file" },
    );
    if (!imported.ok) return imported.response;
    started = true;
    return redirect("/admin/subscribers");
  } finally {
    if (!started) await removeUpload();
  }
}

/** A page route, not a resource route: without JavaScript a refusal is the Subscribers page with its message. */
export default function SubscribersImport() {
  return null;
}
