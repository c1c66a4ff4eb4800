import { resolveUrl } from "./site-urls.ts";

/** What an upload may be (README "Limits"); the server enforces these, the editor states them. */
export const MEDIA_LIMITS = {
  maxBytes: 15 * 1024 * 1024,
  maxPixels: 40_000_000,
} as const;

/** Said by the media service and by the HTTP pipeline's body limit on the upload address alike. */
export const MEDIA_TOO_LARGE_MESSAGE = `Images may be at most ${MEDIA_LIMITS.maxBytes / 1024 / 1024} MB.`;

/** Responsive widths; an image narrower than one of them gets its own width instead, never an upscale. */
export const VARIANT_WIDTHS = [480, 960, 1600, 2400] as const;

export const ACCEPTED_IMAGE_TYPES = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/gif": "gif",
} as const;

export type AcceptedMime = keyof typeof ACCEPTED_IMAGE_TYPES;
export type ImageFormat = (typeof ACCEPTED_IMAGE_TYPES)[AcceptedMime];

export const MIME_BY_FORMAT: Record<ImageFormat, AcceptedMime> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  gif: "image/gif",
};

export function isImageFormat(value: string): value is ImageFormat {
  return Object.hasOwn(MIME_BY_FORMAT, value);
}

/** What a page needs to draw an uploaded image: one URL per width, per format. */
export interface MediaImage {
  hash: string;
  width: number;
  height: number;
  /** The uploaded format: the fallback `<img>` for browsers without AVIF or WebP. */
  format: ImageFormat;
  widths: number[];
}

/** The answer to an upload, for the editor. */
export interface UploadedMedia extends MediaImage {
  url: string;
}

const HASH = "[0-9a-f]{64}";
/** `/media/{hash}/{width}.{format}` or `/media/{hash}/original.{format}`. */
export const MEDIA_PATH_PATTERN = new RegExp(`^/media/(${HASH})/(original|[1-9][0-9]{0,4})\\.([a-z]{3,4})$`);
const MEDIA_HASH_IN_TEXT = new RegExp(`/media/(${HASH})/`, "g");

export function mediaUrl(hash: string, width: number | "original", format: ImageFormat): string {
  return `/media/${hash}/${width}.${format}`;
}

/** A cover image may be an external URL or one of this site's own uploads. */
export function isOwnMediaPath(value: string): boolean {
  return MEDIA_PATH_PATTERN.test(value);
}

/** Every uploaded image a text points at, once each, in order of first mention. */
export function mediaHashesIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(MEDIA_HASH_IN_TEXT), (match) => match[1]!))];
}

/** The largest width of each `srcset`, given the image's own width: never upscaled. */
export function variantWidthsFor(width: number): number[] {
  const widths: number[] = VARIANT_WIDTHS.filter((candidate) => candidate < width);
  widths.push(Math.min(width, VARIANT_WIDTHS.at(-1)!));
  return widths;
}

export function srcsetFor(image: Pick<MediaImage, "hash" | "widths">, format: ImageFormat): string {
  return image.widths.map((width) => `${mediaUrl(image.hash, width, format)} ${width}w`).join(", ");
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const IMAGE_TYPE_BY_EXTENSION: Record<string, string> = {
  avif: "image/avif",
  gif: "image/gif",
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  png: "image/png",
  svg: "image/svg+xml",
  webp: "image/webp",
};

/**
 * An image a post or the settings name (a cover, the site icon), as feeds and ActivityPub carry
 * it: absolute from SITE_URL, http(s) only, with the media type its extension names.
 */
export function absoluteImage(siteUrl: string, reference: string): { url: URL; type: string | undefined } | undefined {
  if (!reference.trim()) return undefined;
  const resolved = resolveUrl(siteUrl, reference);
  const url = resolved === undefined ? undefined : new URL(resolved);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return undefined;
  const extension = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase() ?? "";
  return { url, type: IMAGE_TYPE_BY_EXTENSION[extension] };
}
