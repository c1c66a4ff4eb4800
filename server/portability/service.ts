// Moving out and moving in: the service the Tools page and the CLI use. It tells the kinds of
// file apart; export.ts writes ours, import-own.ts reads it back, import-foreign.ts takes in
// Ghost and WordPress. Why it is built this way: docs/decisions/0009.
import type { Kysely } from "kysely";
import { EXPORT_FORMAT, IMPORT_MAX_BYTES, type ImportOptions, type ImportReport } from "#domain/portability.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { MediaStore } from "../media/index.ts";
import type { ContentChanges } from "../kernel/content-changes.ts";
import { exportArchive, exportBlog } from "./export.ts";
import { importForeign } from "./import-foreign.ts";
import { parseExportJson } from "./import-formats.ts";
import { readGhostExport } from "./import-ghost.ts";
import { checkOwnVersion, importArchive, importOwn } from "./import-own.ts";
import { type ImportDeps, refuse, refuseTooLarge } from "./import-report.ts";
import { readWordPressExport } from "./import-wordpress.ts";

export function createPortabilityService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  changes: ContentChanges;
  mediaStore: MediaStore;
}) {
  return {
    exportBlog: () => exportBlog(deps),
    exportArchive: () => exportArchive(deps),
    importBlog: (content: string, options: ImportOptions) => importBlog(deps, content, options),
    importArchive: (path: string, options: ImportOptions) => importArchive(deps, path, options),
  };
}

/** Reads an export of any kind we know; changes nothing unless the whole file imports. */
async function importBlog(deps: ImportDeps, content: string, options: ImportOptions): Promise<ImportReport> {
  if (Buffer.byteLength(content) > IMPORT_MAX_BYTES) refuseTooLarge();
  const start = content.trimStart().charAt(0);
  if (start === "<") {
    return importForeign(deps, await readWordPressExport(content, options), options);
  }
  if (start !== "{") refuse("This file is neither JSON nor XML: expected an Inkwell, Ghost or WordPress export.");
  let document: unknown;
  try {
    document = parseExportJson(content);
  } catch (error) {
    refuse(`The file is not complete JSON (${(error as Error).message}). Was it cut short?`);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) refuse("Unknown JSON export.");
  const json = document as Record<string, unknown>;
  if (json.format === EXPORT_FORMAT) return importOwn(deps, checkOwnVersion(json), options);
  if (Array.isArray(json.db)) return importForeign(deps, readGhostExport(json, options), options);
  refuse("Unknown JSON export: expected an Inkwell export or a Ghost export.");
}
