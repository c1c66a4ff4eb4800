import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { data } from "react-router";
import { requireOwner } from "~/lib/auth.server";
import { formCreated, formFailure, perform, UNREADABLE_FORM_MESSAGE } from "~/lib/forms.server";
import { readMultipart } from "~/lib/multipart.server";
import type { RouteErrorData } from "~/lib/route-errors.server";
import { validateForm } from "#domain/forms.ts";
import {
  describeSubscriberImport,
  importSubscribersForm,
  SUBSCRIBER_CSV_MAX_BYTES,
  SUBSCRIBER_CSV_TOO_LARGE_MESSAGE,
} from "#domain/subscribers.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribers-import";

/** The CSV, streamed to a temporary file (server/http-body-limits.ts refuses a larger body first), and the consent box. */
const CSV_LIMITS = { fileBytes: SUBSCRIBER_CSV_MAX_BYTES, fields: 5, fieldBytes: 1024 };

/**
 * The CSV import of /admin/subscribers. Its answer is the page with the report, shown this once:
 * how many addresses were added, already listed and skipped, and the invalid lines.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireOwner({ request, context });
  const directory = await mkdtemp(path.join(tmpdir(), "inkwell-subscribers-"));
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
      () => context.get(appContext).services.subscribers.importCsv(source, { consent: parsed.data.consent }),
      { values, field: "file" },
    );
    if (!imported.ok) return imported.response;
    return formCreated(values, { lines: describeSubscriberImport(imported.value) });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** A page route, not a resource route: without JavaScript the answer is the Subscribers page with the report. */
export default function SubscribersImport() {
  return null;
}
