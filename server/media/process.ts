import { createHash } from "node:crypto";
import type { Metadata, Sharp } from "sharp";
import { DomainError } from "#domain/errors.ts";
import {
  ACCEPTED_IMAGE_TYPES,
  type AcceptedMime,
  type ImageFormat,
  MEDIA_LIMITS,
  variantWidthsFor,
  MEDIA_TOO_LARGE_MESSAGE,
} from "#domain/media.ts";
import { loadSharp } from "./sharp.ts";

export const UNSUPPORTED_MESSAGE = "Only JPEG, PNG, WebP, AVIF and GIF images can be uploaded.";
export const TOO_MANY_PIXELS_MESSAGE = `Images may be at most ${MEDIA_LIMITS.maxPixels / 1_000_000} megapixels.`;

export interface EncodedVariant {
  /** 0 for the original. */
  width: number;
  height: number;
  format: ImageFormat;
  bytes: Buffer;
}

export interface ProcessedImage {
  hash: string;
  mime: AcceptedMime;
  format: ImageFormat;
  /** After applying the EXIF orientation, as readers see it. */
  width: number;
  height: number;
  variants: EncodedVariant[];
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function isAcceptedMime(mime: string): mime is AcceptedMime {
  return Object.hasOwn(ACCEPTED_IMAGE_TYPES, mime);
}

/**
 * The type the bytes really are, from their magic numbers; never the name or the declared
 * type, which the sender chooses. SVG (which can carry scripts) is not an accepted type.
 * A declared image type that differs from the bytes is refused too: the file is not what it claims.
 */
export async function sniffImageType(bytes: Uint8Array, declaredType = ""): Promise<AcceptedMime> {
  // Imported on first use, like every library only rare admin tasks need (docs/conventions.md).
  const { fileTypeFromBuffer } = await import("file-type");
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !isAcceptedMime(detected.mime)) throw new DomainError("MEDIA_UNSUPPORTED", UNSUPPORTED_MESSAGE);
  const claimed = declaredType.toLowerCase() === "image/jpg" ? "image/jpeg" : declaredType.toLowerCase();
  if (claimed.startsWith("image/") && claimed !== detected.mime) {
    throw new DomainError("MEDIA_UNSUPPORTED", `This file is not the ${claimed} image it claims to be.`);
  }
  return detected.mime;
}

// failOn "error" refuses truncated and corrupt files; limitInputPixels stops a decompression
// bomb before its pixels are decoded (the header check below answers first, with a message).
export const INPUT_OPTIONS = { limitInputPixels: MEDIA_LIMITS.maxPixels, failOn: "error" } as const;

/**
 * The checks every upload passes before anything is decoded, whether for the media library
 * or for the logo and the icon (site-images.ts): the byte limit, the type from the bytes, a
 * readable header and the pixel limit, each refused with its own message. Returns the type
 * and the header; decode the bytes with INPUT_OPTIONS.
 */
export async function checkUpload(
  bytes: Buffer,
  declaredType?: string,
): Promise<{ mime: AcceptedMime; metadata: Metadata & { width: number; height: number } }> {
  if (bytes.byteLength > MEDIA_LIMITS.maxBytes) throw new DomainError("MEDIA_TOO_LARGE", MEDIA_TOO_LARGE_MESSAGE);
  const mime = await sniffImageType(bytes, declaredType);
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { ...INPUT_OPTIONS, limitInputPixels: false }).metadata();
  } catch (error) {
    throw new DomainError("MEDIA_UNSUPPORTED", "This image could not be read.", { cause: error });
  }
  const { width, height } = metadata;
  if (!width || !height) throw new DomainError("MEDIA_UNSUPPORTED", "This image could not be read.");
  if (width * height > MEDIA_LIMITS.maxPixels) throw new DomainError("MEDIA_TOO_LARGE", TOO_MANY_PIXELS_MESSAGE);
  return { mime, metadata: { ...metadata, width, height } };
}

const ENCODERS: Record<ImageFormat, (image: Sharp) => Sharp> = {
  // Plain libjpeg settings: mozjpeg saves ~10% of bytes for four times the encoding time.
  jpeg: (image) => image.jpeg({ quality: 82 }),
  png: (image) => image.png({ compressionLevel: 9, effort: 4 }),
  webp: (image) => image.webp({ quality: 80, effort: 4 }),
  // AVIF is by far the slowest encode: effort 2 of 9 (sharp's default is 4) trades a little size for time.
  avif: (image) => image.avif({ quality: 55, effort: 2 }),
  gif: (image) => image.gif(),
};

/**
 * Checks and encodes one upload: the type from its bytes, the pixel limit from the header
 * (before anything is decoded), then every variant from the auto-rotated image. Sharp keeps
 * no metadata unless asked, so EXIF (with GPS) is gone from every output while the rotation
 * it described is applied to the pixels.
 */
export async function processImage(bytes: Buffer, declaredType?: string): Promise<ProcessedImage> {
  const { mime, metadata } = await checkUpload(bytes, declaredType);
  const format = ACCEPTED_IMAGE_TYPES[mime];
  const { width: storedWidth, height: storedHeight } = metadata;
  // Orientations 5–8 turn the image a quarter: readers see it the other way round.
  const quarterTurn = (metadata.orientation ?? 1) >= 5;
  const width = quarterTurn ? storedHeight : storedWidth;
  const height = quarterTurn ? storedWidth : storedHeight;

  const base = (await loadSharp())(bytes, INPUT_OPTIONS).rotate();
  const outputs: { width: number; format: ImageFormat }[] = [{ width: 0, format }];
  const formats = [...new Set<ImageFormat>(["avif", "webp", format])];
  for (const variantWidth of variantWidthsFor(width)) {
    for (const variantFormat of formats) outputs.push({ width: variantWidth, format: variantFormat });
  }

  const variants: EncodedVariant[] = [];
  try {
    // One at a time: each encode already uses sharp's thread, and uploads are bounded by the caller.
    for (const output of outputs) {
      const resized =
        output.width === 0 ? base.clone() : base.clone().resize({ width: output.width, withoutEnlargement: true });
      const { data, info } = await ENCODERS[output.format](resized).toBuffer({ resolveWithObject: true });
      variants.push({ width: output.width, height: info.height, format: output.format, bytes: data });
    }
  } catch (error) {
    throw new DomainError("MEDIA_UNSUPPORTED", "This image could not be read.", { cause: error });
  }
  return { hash: sha256Hex(bytes), mime, format, width, height, variants };
}
