import { useEffect, useRef, useState } from "react";

interface CoverImageProps {
  src: string;
  alt: string;
  /** Shown instead of the image when it fails to load (SPEC §8). */
  fallbackText: string;
  className?: string;
  loading?: "eager" | "lazy";
}

/**
 * An image that swaps to a labelled placeholder when its URL is broken. The check on
 * mount catches images that failed before hydration, when no onError could fire.
 */
export function CoverImage({ src, alt, fallbackText, className = "", loading = "lazy" }: CoverImageProps) {
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
  return (
    <img
      ref={imageRef}
      src={src}
      alt={alt}
      loading={loading}
      decoding="async"
      className={`object-cover ${className}`}
      onError={() => setFailedSrc(src)}
    />
  );
}
