import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { data, type RouterContextProvider } from "react-router";
import {
  describeImportReport,
  IMPORT_MAX_BYTES,
  IMPORT_TOO_LARGE_MESSAGE,
  importForm,
  type ImportFormValues,
  type ImportReport,
  refuseUnknownImportCategories,
} from "#domain/portability.ts";
import { validateForm } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import { isZip } from "#server/portability/index.ts";
import { requireOwner } from "./auth.server";
import { formFailure, UNREADABLE_FORM_MESSAGE } from "./forms.server";
import { FOUND_CATEGORIES_MAX } from "#domain/import-categories.ts";
import { readMultipart } from "#server/media/index.ts";
import { answerDomainErrors, type DomainFailure } from "./route-errors.server";

const IMPORT_FAILED_MESSAGES = {
  DATABASE_UNAVAILABLE: "The import could not be saved. Nothing was changed; please try again.",
};
/** The file, and the option fields (a category map can be long, and has a pair of rows for each name found). */
const IMPORT_LIMITS = { fileBytes: IMPORT_MAX_BYTES, fields: 10 + 2 * FOUND_CATEGORIES_MAX, fieldBytes: 1024 * 1024 };

async function startsWithZip(file: string): Promise<boolean> {
  const handle = await open(file);
  try {
    const { buffer } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    return isZip(buffer);
  } finally {
    await handle.close();
  }
}

/** What the import action answers when the file imported: the report, and the same report as lines of text. */
export interface ImportSuccess {
  report: ImportReport;
  lines: string[];
}

interface ReceivedUpload {
  /** The option fields, and the chosen file's name (its bytes are on disk, not here). */
  formData: FormData;
  filePath: string | undefined;
  tooLarge: boolean;
  cleanup: () => Promise<void>;
}

/**
 * Streams the import to a temporary file (readMultipart): an import may be 64 MB.
 * server/kernel/http-body-limits.ts lets only the import paths send a body this large.
 */
async function receiveUpload(request: Request): Promise<ReceivedUpload> {
  const directory = await mkdtemp(path.join(tmpdir(), "inkwell-import-"));
  const cleanup = () => rm(directory, { recursive: true, force: true });
  const target = path.join(directory, "upload");
  const body = await readMultipart(request, { limits: IMPORT_LIMITS, saveFileTo: target });
  if (!body.readable) {
    await cleanup();
    throw data({ message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
  return { formData: body.fields, filePath: body.file && target, tooLarge: body.tooLarge, cleanup };
}

/**
 * The import upload, for both its answers: the report page (no JavaScript) and the JSON the
 * Tools page's upload script reads. Owner only; the import is one transaction, so any
 * refusal leaves the blog as it was.
 */
export async function importUpload({
  request,
  context,
}: {
  request: Request;
  context: Readonly<RouterContextProvider>;
}) {
  requireOwner({ request, context });
  const upload = await receiveUpload(request);
  const values = importForm.read(upload.formData);
  try {
    if (upload.tooLarge) return formFailure(values, { errors: { file: IMPORT_TOO_LARGE_MESSAGE } }, 413);
    const parsed = validateForm(importForm, values);
    if (!parsed.success || upload.filePath === undefined) {
      const errors = parsed.success ? {} : parsed.errors;
      return formFailure<(typeof importForm.fields)[number], ImportFormValues>(values, { errors }, 400);
    }
    const { file: _file, ...options } = parsed.data;
    const { services } = context.get(appContext);
    const names = (await services.categories.list()).map((category) => category.name);
    const { categoryMap, defaultCategory } = refuseUnknownImportCategories(options, names);
    if (categoryMap || defaultCategory) {
      const errors = {
        ...(categoryMap ? { categoryMap } : {}),
        ...(defaultCategory ? { defaultCategory: `The default category ${defaultCategory}` } : {}),
      };
      return formFailure<(typeof importForm.fields)[number], ImportFormValues>(values, { errors }, 400);
    }
    const filePath = upload.filePath;
    const answer = (failure: DomainFailure) =>
      formFailure(values, { formError: `Nothing was imported: ${failure.message}` }, failure.status, failure.headers);
    return await answerDomainErrors(context, { messages: IMPORT_FAILED_MESSAGES, answer }, async () => {
      const { portability } = context.get(appContext).services;
      const report = (await startsWithZip(filePath))
        ? await portability.importArchive(filePath, options)
        : await portability.importBlog(await readFile(filePath, "utf8"), options);
      return data<ImportSuccess>({ report, lines: describeImportReport(report) });
    });
  } finally {
    await upload.cleanup();
  }
}
