// The logo and the site icon (Settings → Images, server/media/site-images.ts) moving out and in:
// the .zip export carries their files at site-images/{hash}/{width}.png, and the import stores
// them before the settings that name them; settings that name files this blog lacks name none.
import { LOGO_VALUE_PATTERN, SITE_ICON_VALUE_PATTERN } from "#domain/site-look.ts";
import type { SiteSettings } from "#domain/site-settings.ts";
import { loadSharp } from "../media/sharp.ts";
import { sha256Hex } from "../media/process.ts";
import type { MediaStore } from "../media/store.ts";
import { readMediaFileKeys } from "../repositories/portability.ts";
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

/**
 * Stores the files of the images these settings name that this blog lacks, checked as an
 * upload is: each must be a PNG, and the largest must have the hash its name gives (a site
 * image is named by it). Returns the hashes added, for the caller to remove if the import fails.
 */
export async function restoreSiteImages(
  store: MediaStore,
  settings: unknown,
  files: readonly ArchivedFile[],
  readFile: (file: ArchivedFile) => Promise<Buffer>,
): Promise<{ added: string[]; names: string[] }> {
  const added: string[] = [];
  const names: string[] = [];
  for (const { kind, hash } of siteImageHashes(settings)) {
    if ((await store.list(hash)).length > 0) continue;
    const own = files.filter((file) => file.hash === hash).sort((a, b) => a.width - b.width);
    if (own.length === 0) continue;
    const stored = [];
    for (const file of own) {
      const bytes = await readFile(file);
      const metadata = await (
        await loadSharp()
      )(bytes)
        .metadata()
        .catch(() => refuse(`${file.entry.fileName} is not an image.`));
      if (metadata.format !== "png") refuse(`${file.entry.fileName} is not a PNG image.`);
      stored.push({ width: file.width, height: metadata.height, format: file.format, bytes });
    }
    if (sha256Hex(stored.at(-1)!.bytes) !== hash) {
      refuse(`The files of ${NAMES[kind]} in ${SITE_IMAGES_DIRECTORY}/${hash}/ are not the image its name says.`);
    }
    await store.put(hash, stored);
    added.push(hash);
    names.push(NAMES[kind]);
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
