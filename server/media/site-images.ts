import { DomainError } from "#domain/errors.ts";
import { loadSharp } from "./sharp.ts";
import { checkUpload, INPUT_OPTIONS, sha256Hex } from "./process.ts";
import type { MediaFile } from "./store.ts";

/** The square sizes browsers ask for: the favicon, Apple's touch icon, the manifest's two. */
export const SITE_ICON_SIZES = [32, 180, 192, 512] as const;
/** The logo is drawn 48 px high in the header; twice that for high-density screens. */
export const LOGO_HEIGHT = 96;
export const LOGO_MAX_WIDTH = 480;

/**
 * The files of a site image, made once at upload and kept in the media store under the hash
 * of their largest file, so a new logo or icon gets a new address and the old one stays cacheable forever.
 */
export interface SiteImage {
  hash: string;
  width: number;
  height: number;
  files: MediaFile[];
}

/** The media library's checks (size, type, pixels), then a resizer of the bytes to PNG. */
async function readable(bytes: Buffer, declaredType: string) {
  await checkUpload(bytes, declaredType);
  const sharp = await loadSharp();
  return (options: { width: number; height?: number; fit: "cover" | "inside" }) =>
    sharp(bytes, INPUT_OPTIONS)
      .rotate()
      .resize({ ...options, withoutEnlargement: options.fit === "inside" })
      .png()
      .toBuffer({ resolveWithObject: true })
      .catch((error: unknown) => {
        throw new DomainError("MEDIA_UNSUPPORTED", "This image could not be read.", { cause: error });
      });
}

/** An author's picture, cut square: drawn at 48 and 96 CSS pixels, each twice that for sharp screens. */
export const AVATAR_SIZES = [96, 192] as const;

/** An author's picture cut to a square from its centre, at every size in AVATAR_SIZES, as PNG. */
export async function makeAvatar(bytes: Buffer, declaredType: string): Promise<SiteImage> {
  const resize = await readable(bytes, declaredType);
  const files: MediaFile[] = [];
  for (const size of AVATAR_SIZES) {
    const { data } = await resize({ width: size, height: size, fit: "cover" });
    files.push({ width: size, height: size, format: "png", bytes: data });
  }
  return { hash: sha256Hex(files.at(-1)!.bytes), width: 192, height: 192, files };
}

/** The icon cut to a square from its centre, at every size in SITE_ICON_SIZES, as PNG. */
export async function makeSiteIcon(bytes: Buffer, declaredType: string): Promise<SiteImage> {
  const resize = await readable(bytes, declaredType);
  const files: MediaFile[] = [];
  for (const size of SITE_ICON_SIZES) {
    const { data } = await resize({ width: size, height: size, fit: "cover" });
    files.push({ width: size, height: size, format: "png", bytes: data });
  }
  return { hash: sha256Hex(files.at(-1)!.bytes), width: 512, height: 512, files };
}

/** The logo at LOGO_HEIGHT (never enlarged, at most LOGO_MAX_WIDTH wide), as PNG to keep transparency. */
export async function makeLogo(bytes: Buffer, declaredType: string): Promise<SiteImage> {
  const resize = await readable(bytes, declaredType);
  const { data, info } = await resize({ width: LOGO_MAX_WIDTH, height: LOGO_HEIGHT, fit: "inside" });
  return {
    hash: sha256Hex(data),
    width: info.width,
    height: info.height,
    files: [{ width: info.width, height: info.height, format: "png", bytes: data }],
  };
}
