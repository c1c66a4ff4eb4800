import { MEDIA_PATH_PATTERN, type ImageFormat, isImageFormat, srcsetFor, variantWidthsFor } from "#domain/media.ts";

interface CoverImageProps {
  src: string;
  alt: string;
  /** Shown instead of the image when it fails to load (docs/spec.md §8). */
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
 * An image followed by its labelled placeholder, which shows instead while the image fails:
 * the page script marks a failed image, before or after any React runs (app/lib/page-script.ts).
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
  const upload = uploadedImage(src);
  const image = (
    <img
      src={src}
      srcSet={upload ? srcsetFor(upload, upload.format) : undefined}
      sizes={upload ? sizes : undefined}
      alt={alt}
      loading={priority ? "eager" : loading}
      fetchPriority={priority ? "high" : undefined}
      decoding={priority ? "sync" : "async"}
      data-cover-image
      className={`object-cover ${className}`}
    />
  );
  const fallback = (
    <div
      role="img"
      aria-label={fallbackText}
      data-cover-fallback
      className={`items-center justify-center bg-slate-200 text-sm font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200 ${className}`}
    >
      {fallbackText}
    </div>
  );
  if (!upload) {
    return (
      <>
        {image}
        {fallback}
      </>
    );
  }
  return (
    <>
      {/* `contents`: the picture adds no box, so the image keeps the layout its classes give it. */}
      <picture className="contents">
        <source type="image/avif" srcSet={srcsetFor(upload, "avif")} sizes={sizes} />
        <source type="image/webp" srcSet={srcsetFor(upload, "webp")} sizes={sizes} />
        {image}
      </picture>
      {fallback}
    </>
  );
}
