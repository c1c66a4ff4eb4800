import { createWriteStream } from "node:fs";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { data, type RouterContextProvider } from "react-router";
import { describeImportReport, IMPORT_MAX_BYTES, IMPORT_TOO_LARGE_MESSAGE, importForm } from "#domain/portability.ts";
import type { ImportFormValues, ImportReport } from "#domain/portability.ts";
import { validateForm } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import { isZip } from "#server/services/import-archive.ts";
import { requireOwner } from "./auth.server";
import { formFailure, UNREADABLE_FORM_MESSAGE } from "./forms.server";
import { describeDomainError } from "./route-errors.server";

const IMPORT_FAILED_MESSAGE = "The import could not be saved. Nothing was changed; please try again.";

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
 * Streams a multipart upload to a temporary file with busboy: an import may be 64 MB, which
 * `request.formData()` would hold in memory (several times over while it parses).
 * server/http.ts lets only the import paths send a body this large.
 */
async function receiveUpload(request: Request): Promise<ReceivedUpload> {
  const directory = await mkdtemp(path.join(tmpdir(), "inkwell-import-"));
  const cleanup = () => rm(directory, { recursive: true, force: true });
  const formData = new FormData();
  let filePath: string | undefined;
  let tooLarge = false;
  const writes: Promise<void>[] = [];
  let writeError: unknown;
  try {
    const parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: { files: 1, fields: 10, fieldSize: 1024 * 1024, fileSize: IMPORT_MAX_BYTES },
    });
    parser.on("field", (name, value) => formData.append(name, value));
    parser.on("file", (name, stream, info) => {
      // A part cut short errors on its own stream too (the parser reports it); unheard, it ends the process.
      stream.on("error", () => undefined);
      if (name !== "file" || !info.filename) {
        stream.resume();
        return;
      }
      const target = path.join(directory, "upload");
      filePath = target;
      // The name is all the form definition needs; an empty File stands for the one on disk.
      formData.append("file", new File([], info.filename));
      stream.on("limit", () => {
        tooLarge = true;
      });
      writes.push(
        pipeline(stream, createWriteStream(target)).catch((error: unknown) => {
          writeError = error;
        }),
      );
    });
    if (!request.body) throw new Error("no body");
    await pipeline(Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>), parser);
    await Promise.all(writes);
    if (writeError) throw writeError;
  } catch {
    await cleanup();
    throw data({ message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
  return { formData, filePath, tooLarge, cleanup };
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
    try {
      const { portability } = context.get(appContext).services;
      const report = (await startsWithZip(upload.filePath))
        ? await portability.importArchive(upload.filePath, options)
        : await portability.importBlog(await readFile(upload.filePath, "utf8"), options);
      return data<ImportSuccess>({ report, lines: describeImportReport(report) });
    } catch (error) {
      const failure = describeDomainError(error, context, { DATABASE_UNAVAILABLE: IMPORT_FAILED_MESSAGE });
      return formFailure(
        values,
        { formError: `Nothing was imported: ${failure.message}` },
        failure.status,
        failure.headers,
      );
    }
  } finally {
    await upload.cleanup();
  }
}
