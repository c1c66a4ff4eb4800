import { useEffect, useRef, useState } from "react";
import { MEDIA_PATH_PATTERN, type ImageFormat, isImageFormat, srcsetFor, variantWidthsFor } from "#domain/media.ts";

interface CoverImageProps {
  src: string;
  alt: string;
  /** Shown instead of the image when it fails to load (SPEC §8). */
  fallbackText: string;
  className?: string;
  loading?: "eager" | "lazy";
  /** The page's main image (its likely Largest Contentful Paint): fetched first, never lazily. */
  priority?: boolean;
  /** How wide the image is drawn, for choosing among an upload's widths. */
  sizes?: string;
}

/**
 * An upload addressed by its largest width (`/media/{hash}/{width}.{format}`, what the
 * uploader inserts) names every smaller width too: they are made by the same rule.
 */
function uploadedImage(src: string): { hash: string; widths: number[]; format: ImageFormat } | undefined {
  const [, hash, size, format] = MEDIA_PATH_PATTERN.exec(src) ?? [];
  if (!hash || !size || size === "original" || !format || !isImageFormat(format)) return undefined;
  return { hash, widths: variantWidthsFor(Number(size)), format };
}

/**
 * An image that swaps to a labelled placeholder when its URL is broken. The check on
 * mount catches images that failed before hydration, when no onError could fire.
 * This site's own uploads come as a `<picture>` offering AVIF, WebP and every width.
 */
export function CoverImage({
  src,
  alt,
  fallbackText,
  className = "",
  loading = "lazy",
  priority = false,
  sizes = "100vw",
}: CoverImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const imageRef = useRef<HTMLImageElement>(null);

  useEffect(() => {
    const image = imageRef.current;
    if (image?.complete && image.naturalWidth === 0) setFailedSrc(src);
  }, [src]);

  if (failedSrc === src) {
    return (
      <div
        role="img"
        aria-label={fallbackText}
        className={`flex items-center justify-center bg-slate-200 text-sm font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200 ${className}`}
      >
        {fallbackText}
      </div>
    );
  }
  const upload = uploadedImage(src);
  const image = (
    <img
      ref={imageRef}
      src={src}
      srcSet={upload ? srcsetFor(upload, upload.format) : undefined}
      sizes={upload ? sizes : undefined}
      alt={alt}
      loading={priority ? "eager" : loading}
      fetchPriority={priority ? "high" : undefined}
      decoding={priority ? "sync" : "async"}
      className={`object-cover ${className}`}
      onError={() => setFailedSrc(src)}
    />
  );
  if (!upload) return image;
  return (
    // `contents`: the picture adds no box, so the image keeps the layout its classes give it.
    <picture className="contents">
      <source type="image/avif" srcSet={srcsetFor(upload, "avif")} sizes={sizes} />
      <source type="image/webp" srcSet={srcsetFor(upload, "webp")} sizes={sizes} />
      {image}
    </picture>
  );
}
