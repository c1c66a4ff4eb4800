import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { MEDIA_LIMITS } from "#domain/media.ts";
import { processImage, sniffImageType } from "./process.ts";

function solid(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: "#3355cc" } });
}

/** The GPS sub-directory pointer (tag 0x8825), in either byte order. */
function hasGpsPointer(exif: Buffer | undefined): boolean {
  return exif !== undefined && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));
}

/** Rewrites a PNG's IHDR dimensions (and its checksum), as a decompression bomb would claim. */
function withPngSize(png: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(png);
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  copy.writeUInt32BE(crc32(copy.subarray(12, 29)), 29);
  return copy;
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isDomainError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, message: error.message };
}

describe("type sniffing", () => {
  it("reads each accepted type from its bytes, whatever the name says", async () => {
    const image = solid(8, 8);
    expect(await sniffImageType(await image.clone().jpeg().toBuffer())).toBe("image/jpeg");
    expect(await sniffImageType(await image.clone().png().toBuffer())).toBe("image/png");
    expect(await sniffImageType(await image.clone().webp().toBuffer())).toBe("image/webp");
    expect(await sniffImageType(await image.clone().avif().toBuffer())).toBe("image/avif");
    expect(await sniffImageType(await image.clone().gif().toBuffer())).toBe("image/gif");
  });

  it("refuses SVG, even one that calls itself a PNG", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(await refusal(sniffImageType(svg, "image/svg+xml"))).toEqual({
      status: 415,
      message: "Only JPEG, PNG, WebP, AVIF and GIF images can be uploaded.",
    });
    expect((await refusal(processImage(svg, "image/png"))).status).toBe(415);
  });

  it("refuses bytes that are not the image type they claim", async () => {
    const png = await solid(8, 8).png().toBuffer();
    expect(await refusal(sniffImageType(png, "image/jpeg"))).toEqual({
      status: 415,
      message: "This file is not the image/jpeg image it claims to be.",
    });
    // The right magic number in front of something else: sharp cannot read it as a GIF.
    expect((await refusal(processImage(Buffer.from("GIF89a but really text"), "image/gif"))).status).toBe(415);
  });
});

describe("limits", () => {
  it("refuses a file above 15 MB before reading it", async () => {
    const tooBig = Buffer.alloc(MEDIA_LIMITS.maxBytes + 1);
    expect(await refusal(processImage(tooBig, "image/png"))).toEqual({
      status: 413,
      message: "Images may be at most 15 MB.",
    });
  });

  it("refuses an image above 40 megapixels from its header, so a decompression bomb is never decoded", async () => {
    // A tiny PNG whose header claims 20,000 × 20,000 pixels: 1.6 GB once decoded.
    const bomb = withPngSize(await solid(16, 16).png().toBuffer(), 20_000, 20_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(20_000);
    expect(await refusal(processImage(bomb, "image/png"))).toEqual({
      status: 413,
      message: "Images may be at most 40 megapixels.",
    });
  });

  it("refuses a truncated image", async () => {
    const jpeg = await solid(200, 200).jpeg().toBuffer();
    expect((await refusal(processImage(jpeg.subarray(0, jpeg.byteLength / 2), "image/jpeg"))).status).toBe(415);
  });
});

describe("processing", () => {
  it("strips EXIF with its GPS position and keeps the orientation by turning the pixels", async () => {
    const photo = await solid(1200, 600)
      .jpeg()
      .withExif({ IFD0: { Make: "FixtureCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1" } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect(hasGpsPointer(before.exif)).toBe(true);

    const processed = await processImage(photo, "image/jpeg");
    expect([processed.width, processed.height]).toEqual([600, 1200]);
    for (const variant of processed.variants) {
      const after = await sharp(variant.bytes).metadata();
      expect(after.exif).toBeUndefined();
      expect(after.orientation ?? 1).toBe(1);
      expect(variant.bytes.includes(Buffer.from("FixtureCam"))).toBe(false);
    }
  });

  it("makes AVIF, WebP and the original format at each width below the image's own, never upscaling", async () => {
    const processed = await processImage(await solid(1000, 500).png().toBuffer(), "image/png");
    const made = processed.variants.map((variant) => `${variant.width}.${variant.format}`).sort();
    expect(made).toEqual(
      [
        "0.png",
        "480.avif",
        "480.png",
        "480.webp",
        "960.avif",
        "960.png",
        "960.webp",
        "1000.avif",
        "1000.png",
        "1000.webp",
      ].sort(),
    );
    for (const variant of processed.variants) {
      const { width, format } = await sharp(variant.bytes).metadata();
      expect(width).toBe(variant.width === 0 ? 1000 : variant.width);
      expect(format).toBe(variant.format === "avif" ? "heif" : variant.format);
    }
    expect(processed.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
