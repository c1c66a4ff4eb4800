// The logo and the site icon (Settings → Images, server/media/site-images.ts) moving out and in:
// the .zip export carries their files at site-images/{hash}/{width}.png, and the import stores
// them before the settings that name them; settings that name files this blog lacks name none.
// Only the files an export makes are read, one at a time, each bounded by its size first.
import { LOGO_VALUE_PATTERN, SITE_ICON_VALUE_PATTERN } from "#domain/site-look.ts";
import type { SiteSettings } from "#domain/site-settings.ts";
import { loadSharp, LOGO_HEIGHT, LOGO_MAX_WIDTH, type MediaStore, sha256Hex, SITE_ICON_SIZES } from "../media/index.ts";
import { readMediaFileKeys } from "./repositories/portability.ts";
import type { ArchivedFile } from "./import-archive.ts";
import { isObject } from "./import-formats.ts";
import { refuse, type Trx } from "./import-report.ts";

export const SITE_IMAGES_DIRECTORY = "site-images";

type SiteImageKind = "logo" | "siteIcon";
const NAMES: Record<SiteImageKind, string> = { logo: "the logo", siteIcon: "the site icon" };

/** The hash each image setting names (a logo is `{hash}:{width}x{height}`, an icon its hash). */
export function siteImageHashes(settings: unknown): { kind: SiteImageKind; hash: string }[] {
  if (!isObject(settings)) return [];
  const logo = LOGO_VALUE_PATTERN.exec(String(settings.logo ?? ""))?.[1];
  const icon = SITE_ICON_VALUE_PATTERN.test(String(settings.siteIcon ?? "")) ? String(settings.siteIcon) : undefined;
  return [
    ...(logo ? [{ kind: "logo" as const, hash: logo }] : []),
    ...(icon ? [{ kind: "siteIcon" as const, hash: icon }] : []),
  ];
}

/** The files an image setting names, smallest first: the icon at each of its sizes, the logo at its one. */
function expectedFiles(kind: SiteImageKind, settings: unknown): { width: number; height: number }[] {
  if (kind === "siteIcon") return SITE_ICON_SIZES.map((size) => ({ width: size, height: size }));
  const [, , width, height] = LOGO_VALUE_PATTERN.exec(String(isObject(settings) ? settings.logo : "")) ?? [];
  return [{ width: Number(width), height: Number(height) }];
}

/**
 * The most a PNG of these dimensions can take, uncompressed or not: 16-bit RGBA with a filter
 * byte a row, stored without compression, and room for its chunks. An entry listed as larger
 * is refused before a byte of it is read.
 */
const maxPngBytes = ({ width, height }: { width: number; height: number }) => height * (width * 8 + 1) + 64 * 1024;

/**
 * Stores the files of the images these settings name that this blog lacks, checked as an
 * upload is. Only the files an export holds are read: the icon's sizes (SITE_ICON_SIZES) and
 * the logo at the width its setting gives; any other file in an image's folder refuses the
 * import. Each file is bounded by its dimensions before it is read, then read, checked and
 * stored on its own, the largest first: it must have the hash the image is named by (a site
 * image is named by it). Every file must be a PNG of its size. Returns the hashes added, for
 * the caller to remove if the import fails later; on a refusal here, what was stored is removed.
 */
export async function restoreSiteImages(
  store: MediaStore,
  settings: unknown,
  files: readonly ArchivedFile[],
  readFile: (file: ArchivedFile) => Promise<Buffer>,
): Promise<{ added: string[]; names: string[] }> {
  const added: string[] = [];
  const names: string[] = [];
  try {
    for (const { kind, hash } of siteImageHashes(settings)) {
      if ((await store.list(hash)).length > 0) continue;
      const own = files.filter((file) => file.hash === hash);
      if (own.length === 0) continue;
      const folder = `${SITE_IMAGES_DIRECTORY}/${hash}/`;
      const expected = expectedFiles(kind, settings);
      const largest = expected.at(-1)!;
      if (kind === "logo" && (largest.width > LOGO_MAX_WIDTH || largest.height > LOGO_HEIGHT)) {
        refuse(
          `The settings name a logo of ${largest.width}x${largest.height}; a logo is at most ${LOGO_MAX_WIDTH}x${LOGO_HEIGHT}.`,
        );
      }
      const fileNames = expected.map(({ width }) => `${width}.png`).join(", ");
      for (const file of own) {
        if (!expected.some(({ width }) => width === file.width)) {
          refuse(`${file.entry.fileName} is not a file of ${NAMES[kind]}: ${folder} holds only ${fileNames}.`);
        }
        if (own.filter((other) => other.width === file.width).length > 1) {
          refuse(`${file.entry.fileName} is in the archive more than once.`);
        }
      }
      const inOrder = [...expected].reverse().flatMap((size) => {
        const file = own.find((candidate) => candidate.width === size.width);
        return file ? [{ file, size }] : [];
      });
      if (inOrder[0]?.size !== largest) {
        refuse(`${folder} has no ${largest.width}.png, the file ${NAMES[kind]} is named by.`);
      }
      added.push(hash);
      for (const { file, size } of inOrder) {
        if (file.entry.uncompressedSize > maxPngBytes(size)) {
          refuse(`${file.entry.fileName} is larger than a ${size.width}x${size.height} PNG can be.`);
        }
        const bytes = await readFile(file);
        if (size === largest && sha256Hex(bytes) !== hash) {
          refuse(`The files of ${NAMES[kind]} in ${folder} are not the image its name says.`);
        }
        const metadata = await (
          await loadSharp()
        )(bytes)
          .metadata()
          .catch(() => refuse(`${file.entry.fileName} is not an image.`));
        if (metadata.format !== "png") refuse(`${file.entry.fileName} is not a PNG image.`);
        if (metadata.width !== size.width || metadata.height !== size.height) {
          refuse(`${file.entry.fileName} is not ${size.width}x${size.height}, the size ${NAMES[kind]} has there.`);
        }
        await store.put(hash, [{ width: size.width, height: size.height, format: "png", bytes }]);
      }
      names.push(NAMES[kind]);
    }
  } catch (error) {
    for (const hash of added) await store.delete(hash);
    throw error;
  }
  return { added, names };
}

/** The settings with any image whose files this blog does not have left out, and the report's warning. */
export async function withStoredSiteImages(
  trx: Trx,
  settings: Partial<SiteSettings>,
  warnings: string[],
): Promise<Partial<SiteSettings>> {
  const kept = { ...settings };
  for (const { kind, hash } of siteImageHashes(settings)) {
    if ((await readMediaFileKeys(trx, [hash])).length > 0) continue;
    kept[kind] = "";
    warnings.push(
      `${NAMES[kind]} is not on this blog (import the .zip export, which carries it); the site shows none until you upload it`,
    );
  }
  return kept;
}
