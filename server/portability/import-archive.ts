// Reading the .zip export (export.ts writes it): the JSON document, the images' records
// and their files. Entry names are only ever matched, never used as paths on disk.
import type { Entry, ZipFile } from "yauzl";
import { z } from "zod";
import { DomainError } from "#domain/errors.ts";
import { ACCEPTED_IMAGE_TYPES, type ImageFormat, isImageFormat, MEDIA_LIMITS } from "#domain/media.ts";
import { IMPORT_MAX_BYTES, IMPORT_TOO_LARGE_MESSAGE } from "#domain/portability.ts";
import { parseExportJson } from "./import-formats.ts";
import { refuse } from "./import-report.ts";

export const ARCHIVE_EXPORT_NAME = "inkwell-export.json";
export const ARCHIVE_MEDIA_NAME = "media.json";
const MEDIA_FILE_NAME = /^media\/([0-9a-f]{64})\/(original|[1-9][0-9]{0,4})\.([a-z]{3,4})$/;
/** The logo's and the site icon's files (import-site-images.ts): PNG at each width made. */
const SITE_IMAGE_FILE_NAME = /^site-images\/([0-9a-f]{64})\/([1-9][0-9]{0,4})\.(png)$/;
/** More entries than any real blog has images times variants: a zip of a million empty entries is refused. */
const MAX_ENTRIES = 200_000;

/** The four bytes every zip starts with (a local file header). */
export function isZip(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;
}

const mediaRecordSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  originalName: z.string().max(255),
  mime: z.enum(Object.keys(ACCEPTED_IMAGE_TYPES) as [keyof typeof ACCEPTED_IMAGE_TYPES]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
  uploadedBy: z.string().max(200),
});

export type ArchivedMedia = z.infer<typeof mediaRecordSchema>;

export interface ArchivedFile {
  hash: string;
  /** 0 for the original, as the media store keys it. */
  width: number;
  format: ImageFormat;
  entry: Entry;
}

export interface OpenedArchive {
  json: string;
  media: ArchivedMedia[];
  files: ArchivedFile[];
  siteFiles: ArchivedFile[];
  ignored: string[];
  readFile: (file: ArchivedFile) => Promise<Buffer>;
  close: () => void;
}

/**
 * One file of the archive. yauzl checks each file against the size the archive lists for it
 * (so a file that inflates past it is cut off there) and the compressed data itself; either
 * failure means the archive is damaged, or built to look smaller than it is.
 */
async function readEntry(zip: ZipFile, entry: Entry, maxBytes: number, tooLarge: string): Promise<Buffer> {
  if (entry.uncompressedSize > maxBytes) refuse(tooLarge);
  try {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (error) {
    refuse(
      `The archive is damaged: ${entry.fileName} cannot be read as the archive lists it (${(error as Error).message}). Export it again.`,
    );
  }
}

/** Lists the archive's entries (reading no file yet) and reads its two JSON documents. */
export async function openArchive(path: string): Promise<OpenedArchive> {
  // Imported on first use, like every library only rare admin tasks need (docs/conventions.md).
  const { openPromise } = await import("yauzl");
  let zip: ZipFile;
  try {
    zip = await openPromise(path, { lazyEntries: true, autoClose: false });
  } catch (error) {
    refuse(`This .zip cannot be read (${(error as Error).message}). Was it cut short?`);
  }
  try {
    const entries = await new Promise<Entry[]>((resolve, reject) => {
      const found: Entry[] = [];
      zip.on("entry", (entry: Entry) => {
        found.push(entry);
        if (found.length > MAX_ENTRIES) reject(new DomainError("IMPORT_REFUSED", "This .zip has too many files."));
        else zip.readEntry();
      });
      zip.on("end", () => resolve(found));
      zip.on("error", reject);
      zip.readEntry();
    }).catch((error: unknown) => {
      if (error instanceof DomainError) throw error;
      refuse(`This .zip cannot be read (${(error as Error).message}). Was it cut short?`);
    });
    const byName = new Map(entries.map((entry) => [entry.fileName, entry]));
    const exportEntry =
      byName.get(ARCHIVE_EXPORT_NAME) ??
      refuse(`This .zip has no ${ARCHIVE_EXPORT_NAME}: it is not an Inkwell export.`);
    const json = (await readEntry(zip, exportEntry, IMPORT_MAX_BYTES, IMPORT_TOO_LARGE_MESSAGE)).toString("utf8");
    const mediaEntry = byName.get(ARCHIVE_MEDIA_NAME);
    let media: ArchivedMedia[] = [];
    if (mediaEntry) {
      let parsed: unknown;
      try {
        parsed = parseExportJson(
          (await readEntry(zip, mediaEntry, IMPORT_MAX_BYTES, IMPORT_TOO_LARGE_MESSAGE)).toString("utf8"),
        );
      } catch (error) {
        if (error instanceof DomainError) throw error;
        refuse(`${ARCHIVE_MEDIA_NAME} is not complete JSON.`);
      }
      const records = z.array(mediaRecordSchema).safeParse(parsed);
      if (!records.success) {
        const issue = records.error.issues[0];
        refuse(`${ARCHIVE_MEDIA_NAME}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? "is not valid"}.`);
      }
      media = records.data;
    }
    const files: ArchivedFile[] = [];
    const siteFiles: ArchivedFile[] = [];
    const ignored: string[] = [];
    for (const entry of entries) {
      if (entry.fileName === ARCHIVE_EXPORT_NAME || entry.fileName === ARCHIVE_MEDIA_NAME) continue;
      const site = SITE_IMAGE_FILE_NAME.exec(entry.fileName);
      if (site) {
        siteFiles.push({ hash: site[1]!, width: Number(site[2]), format: "png", entry });
        continue;
      }
      const match = MEDIA_FILE_NAME.exec(entry.fileName);
      if (!match || !isImageFormat(match[3]!)) {
        if (!entry.fileName.endsWith("/")) ignored.push(entry.fileName);
        continue;
      }
      files.push({
        hash: match[1]!,
        width: match[2] === "original" ? 0 : Number(match[2]),
        format: match[3],
        entry,
      });
    }
    return {
      json,
      media,
      files,
      siteFiles,
      ignored,
      readFile: (file) =>
        readEntry(
          zip,
          file.entry,
          MEDIA_LIMITS.maxBytes * 4,
          `${file.entry.fileName} is larger than any image this blog stores.`,
        ),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}
