import { type FormEvent, useState } from "react";
import { FormError, SelectField, TextAreaField, TextField } from "~/components/ui/field";
import { buttonStyles, fileInputStyles, inputStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import type { FormResult } from "#domain/forms.ts";
import {
  IMPORT_MAX_BYTES,
  IMPORT_TOO_LARGE_MESSAGE,
  importForm,
  type ImportFormValues,
  type ImportReport,
} from "#domain/portability.ts";
import { categoriesInExport } from "#domain/import-categories.ts";

type ImportField = (typeof importForm.fields)[number];
export type ImportFormResult = FormResult<ImportField, ImportFormValues>;
export interface ImportSuccessData {
  report: ImportReport;
  lines: string[];
}

/** Where the form posts without JavaScript (a report page), and where the upload script posts (JSON). */
const IMPORT_PATH = "/admin/tools/import";
const IMPORT_JSON_PATH = "/admin/tools/import.json";
const UPLOAD_FAILED_MESSAGE = `The upload did not finish. Nothing was imported; check the connection and that the file is at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB, then try again.`;

const IMPORT_PAGES_OPTIONS = [
  { value: "pages", label: "Import pages as pages" },
  { value: "posts", label: "Import pages as posts" },
  { value: "skip", label: "Leave pages out" },
];

const SIGNED_OUT_MESSAGE = "You are signed out. Sign in again in another tab, then import the file again.";

type Upload = { state: "idle" } | { state: "uploading"; percent: number } | { state: "importing" };

function isFormResult(value: unknown): value is ImportFormResult {
  return typeof value === "object" && value !== null && "errors" in value && "values" in value;
}

function isImportSuccess(value: unknown): value is ImportSuccessData {
  return typeof value === "object" && value !== null && "report" in value && "lines" in value;
}

/** The report of one import (a blog's, or a subscriber CSV's): what was created, what was skipped and why, and the warnings. */
export function ImportReportView({ result }: { result: Pick<ImportSuccessData, "lines"> }) {
  const [summary, ...details] = result.lines;
  const skipped = details.filter((line) => line.startsWith("Skipped "));
  const warnings = details.filter((line) => line.startsWith("Warning: "));
  return (
    <section
      aria-labelledby="import-report-heading"
      className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm dark:border-emerald-900 dark:bg-emerald-950"
    >
      <h2 id="import-report-heading" className="text-lg font-semibold">
        Import report
      </h2>
      <p role="status" className="font-medium">
        {summary}
      </p>
      {skipped.length > 0 ? (
        <>
          <h3 className="font-semibold">Skipped ({skipped.length})</h3>
          <ul className="list-disc space-y-1 pl-5">
            {skipped.map((line, index) => (
              <li key={index}>{line.slice("Skipped ".length)}</li>
            ))}
          </ul>
        </>
      ) : null}
      {warnings.length > 0 ? (
        <>
          <h3 className="font-semibold">Warnings ({warnings.length})</h3>
          <ul className="list-disc space-y-1 pl-5">
            {warnings.map((line, index) => (
              <li key={index}>{line.slice("Warning: ".length)}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/**
 * The import upload. Without JavaScript it is a plain multipart form whose answer is a report
 * page; with JavaScript the same form is sent with XMLHttpRequest, whose upload events (which
 * fetch does not have) drive the progress bar, and the report appears below it.
 */
export function ImportForm({
  result,
  categories,
}: {
  result: ImportFormResult | undefined;
  /** The writer's categories, in their order. */
  categories: readonly string[];
}) {
  const [uploadResult, setUploadResult] = useState<ImportFormResult | undefined>(undefined);
  const [report, setReport] = useState<ImportSuccessData | undefined>(undefined);
  const [upload, setUpload] = useState<Upload>({ state: "idle" });
  const [found, setFound] = useState<string[]>([]);
  const form = useValidatedForm(importForm, { id: "import", result: uploadResult ?? result });
  const values = (uploadResult ?? result)?.values;

  const send = (formElement: HTMLFormElement) => {
    const request = new XMLHttpRequest();
    request.open("POST", IMPORT_JSON_PATH);
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable)
        setUpload({ state: "uploading", percent: Math.round((event.loaded / event.total) * 100) });
    };
    request.upload.onload = () => setUpload({ state: "importing" });
    request.onload = () => {
      setUpload({ state: "idle" });
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status === 200 && isImportSuccess(body)) {
        setUploadResult(undefined);
        setReport(body);
        formElement.reset();
        return;
      }
      // A session that ended is answered with a redirect, which XMLHttpRequest follows to the sign-in page.
      const signedOut = request.responseURL !== "" && new URL(request.responseURL).pathname === "/login";
      const plainText = request.getResponseHeader("Content-Type")?.startsWith("text/plain") === true;
      const formError = signedOut
        ? SIGNED_OUT_MESSAGE
        : request.status === 413
          ? IMPORT_TOO_LARGE_MESSAGE
          : isFormResult(body)
            ? body.formError
            : plainText && request.responseText.trim()
              ? request.responseText.trim().slice(0, 500)
              : UPLOAD_FAILED_MESSAGE;
      setUploadResult(
        isFormResult(body) ? body : { values: importForm.read(new FormData(formElement)), errors: {}, formError },
      );
    };
    request.onerror = () => {
      setUpload({ state: "idle" });
      setUploadResult({
        values: importForm.read(new FormData(formElement)),
        errors: {},
        formError: UPLOAD_FAILED_MESSAGE,
      });
    };
    setReport(undefined);
    setUpload({ state: "uploading", percent: 0 });
    request.send(new FormData(formElement));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    form.props.onSubmit(event);
    if (event.defaultPrevented) return;
    event.preventDefault();
    send(event.currentTarget);
  };

  /** Reads the chosen file's category and tag names, for the map's rows; a zip is read by the server alone. */
  const readCategories = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    setFound([]);
    if (!file || file.size > IMPORT_MAX_BYTES || !/\.(json|xml)$/i.test(file.name)) return;
    void file.text().then(
      (text) => input.files?.[0] === file && setFound(categoriesInExport(text)),
      () => setFound([]),
    );
  };

  const busy = upload.state !== "idle";
  return (
    <div className="space-y-4">
      {/* A plain <form>: with JavaScript the upload goes through XMLHttpRequest for its progress events. */}
      <form
        method="post"
        action={IMPORT_PATH}
        encType="multipart/form-data"
        {...form.props}
        onSubmit={onSubmit}
        className="space-y-4"
      >
        <FormError message={form.formError} />
        <TextField
          {...form.field("file")}
          label="Export file"
          hint={`An Inkwell export (.json, or .zip with images), a Ghost export (.json) or a WordPress export (WXR, .xml); at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB here (larger archives: npm run blog -- import).`}
          type="file"
          accept=".json,.xml,.zip,application/json,text/xml,application/zip"
          onChange={(event) => readCategories(event.currentTarget)}
          className={fileInputStyles}
        />
        {found.length > 0 ? <FoundCategories names={found} categories={categories} /> : null}
        <TextAreaField
          {...form.field("categoryMap")}
          label="Category map (optional)"
          hint={`Not needed: a category the old blog has and this one lacks is created, and the report names it. The categories of a chosen .json or .xml file are listed above to file elsewhere; any other name can be mapped here as JSON from the old blog's category or tag names to categories here (${categories.join(", ")}), such as {"news": "Business"}.`}
          rows={3}
          defaultValue={values?.categoryMap ?? ""}
          className={`${inputStyles} font-mono text-sm`}
        />
        <SelectField
          {...form.field("defaultCategory")}
          label="Default category"
          hint="Where a post goes that names no category (a Ghost post whose tags are none of these)."
          defaultValue={values?.defaultCategory ?? categories[0]}
          options={categories}
        />
        <SelectField
          {...form.field("pages")}
          label="Pages (WordPress and Ghost)"
          defaultValue={values?.pages ?? "pages"}
          options={IMPORT_PAGES_OPTIONS}
        />
        <button type="submit" disabled={busy} className={buttonStyles.primary}>
          Import
        </button>
        {upload.state === "uploading" ? (
          <div role="status" className="space-y-1 text-sm">
            <label htmlFor="import-progress">Uploading… {upload.percent}%</label>
            <progress id="import-progress" max={100} value={upload.percent} className="block w-full" />
          </div>
        ) : upload.state === "importing" ? (
          <p role="status" className="text-sm">
            Uploaded; importing…
          </p>
        ) : null}
      </form>
      {report ? <ImportReportView result={report} /> : null}
    </div>
  );
}

/** One row per category or tag found in the chosen file: where its posts go here. */
function FoundCategories({ names, categories }: { names: readonly string[]; categories: readonly string[] }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Categories in this file</legend>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Choose where each one&apos;s posts go. Left as it is, a name becomes (or joins) a category of the same name.
      </p>
      {names.map((name, index) => (
        <div key={name} className="grid grid-cols-1 items-center gap-1 sm:grid-cols-2 sm:gap-3">
          <input type="hidden" name="mapFrom" value={name} />
          <label htmlFor={`import-map-${index}`} className="text-sm break-words">
            {name}
          </label>
          <select id={`import-map-${index}`} name="mapTo" defaultValue="" className={inputStyles}>
            <option value="">Keep “{name}”</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </div>
      ))}
    </fieldset>
  );
}
