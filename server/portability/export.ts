// Moving out: the whole blog as one streamed JSON document, alone or in a .zip with its images.
// The format is docs/export-format.schema.json; why it is built this way: docs/decisions/0009.
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import { ZipFile } from "yazl";
import { type ImageFormat } from "#domain/media.ts";
import { EXPORT_FORMAT, EXPORT_VERSION } from "#domain/portability.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { MediaStore } from "../media/index.ts";
import { loadTags } from "../posts/index.ts";
import { toIsoString } from "../kernel/rows.ts";
import {
  EXPORTED_SECTIONS,
  type ExportRow,
  type ExportSection,
  readAllSettings,
  readExportPage,
  readMediaExportPage,
  readMediaFileKeys,
} from "./repositories/portability.ts";
import { findSiteSettings } from "../site/index.ts";
import { ARCHIVE_EXPORT_NAME, ARCHIVE_MEDIA_NAME } from "./import-archive.ts";
import { SITE_IMAGES_DIRECTORY, siteImageHashes } from "./import-site-images.ts";

export interface ExportDeps {
  db: Kysely<Database>;
  now: () => Date;
  mediaStore: MediaStore;
}

/** Rows read per query while exporting: memory stays flat however large the blog. */
const EXPORT_PAGE_SIZE = 500;
/** Images listed per query while building an archive (their files are read one at a time). */
const MEDIA_PAGE_SIZE = 100;

/** The site's title, links and other Settings travel inside `site` under this key. */
export const SITE_SETTINGS_KEY = "siteSettings";

/** A column's name in the export (`created_at` is `createdAt`). */
export function exportKey(column: string): string {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function toJsonRow(row: ExportRow): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      exportKey(column),
      value instanceof Date ? toIsoString(value) : value,
    ]),
  );
}

/** The whole blog as one JSON document, yielded a few rows at a time. */
export async function* exportBlog({ db, now }: Pick<ExportDeps, "db" | "now">): AsyncGenerator<string> {
  yield `{"format":"${EXPORT_FORMAT}","version":${EXPORT_VERSION},"exportedAt":${JSON.stringify(now().toISOString())}`;
  const site: Record<string, unknown> = Object.fromEntries(
    (await readAllSettings(db)).map(({ key, value }) => [key, JSON.parse(value)]),
  );
  const siteSettings = await findSiteSettings(db);
  if (siteSettings) site[SITE_SETTINGS_KEY] = siteSettings.value;
  yield `,"site":${JSON.stringify(site)}`;
  for (const section of Object.keys(EXPORTED_SECTIONS) as ExportSection[]) {
    yield `,${JSON.stringify(section)}:[`;
    const key = EXPORTED_SECTIONS[section].key;
    let after: string | undefined;
    let separator = "";
    for (;;) {
      const page = await readExportPage(db, section, after, EXPORT_PAGE_SIZE);
      const tags =
        section === "posts"
          ? await loadTags(
              db,
              page.map((row) => String(row.id)),
            )
          : undefined;
      let chunk = "";
      for (const row of page) {
        const json = toJsonRow(row);
        if (tags) json.tags = tags.get(String(row.id)) ?? [];
        chunk += separator + JSON.stringify(json);
        separator = ",";
      }
      if (chunk) yield chunk;
      if (page.length < EXPORT_PAGE_SIZE) break;
      after = String(page[page.length - 1]?.[key]);
    }
    yield "]";
  }
  yield "}\n";
}

/**
 * The export and every uploaded image as one zip: the JSON document, the images' records
 * (media.json) and each stored file at its URL path (media/{hash}/{original|width}.{format}),
 * and the logo's and site icon's files (site-images/{hash}/{width}.png).
 * Files are read one at a time as the zip is written, so memory stays flat.
 */
export function exportArchive(deps: ExportDeps): Readable {
  const { db, mediaStore } = deps;
  const zip = new ZipFile();
  const output = Readable.from(zip.outputStream);
  zip.addReadStreamLazy(ARCHIVE_EXPORT_NAME, (done) => done(null, Readable.from(exportBlog(deps))));
  // Images are compressed already; storing them as they are saves the CPU for nothing.
  const addStoredFile = (name: string, file: { hash: string; width: number; format: string }) =>
    zip.addReadStreamLazy(name, { compress: false }, (done) => {
      mediaStore.get(file.hash, file.width, file.format as ImageFormat).then(
        (stored) => done(null, Readable.from(stored ? [stored.bytes] : [])),
        (error: unknown) => done(error, Readable.from([])),
      );
    });
  const listFiles = async () => {
    const records: Record<string, unknown>[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await readMediaExportPage(db, after, MEDIA_PAGE_SIZE);
      records.push(...page.map(toJsonRow));
      for (const file of await readMediaFileKeys(
        db,
        page.map((row) => String(row.hash)),
      )) {
        addStoredFile(`media/${file.hash}/${file.width === 0 ? "original" : file.width}.${file.format}`, file);
      }
      if (page.length < MEDIA_PAGE_SIZE) break;
      after = String(page[page.length - 1]?.hash);
    }
    zip.addBuffer(Buffer.from(JSON.stringify(records)), ARCHIVE_MEDIA_NAME);
    for (const { hash } of siteImageHashes((await findSiteSettings(db))?.value)) {
      for (const file of await mediaStore.list(hash)) {
        addStoredFile(`${SITE_IMAGES_DIRECTORY}/${hash}/${file.width}.${file.format}`, { hash, ...file });
      }
    }
    zip.end();
  };
  listFiles().catch((error: unknown) => output.destroy(error as Error));
  return output;
}
