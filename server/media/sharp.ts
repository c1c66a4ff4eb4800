import type sharpModule from "sharp";

type SharpFactory = typeof sharpModule;

let loading: Promise<SharpFactory> | undefined;

/**
 * sharp on first use (docs/conventions.md): it and libvips take about 20 MB of a server's
 * memory, and most servers spend most of their life serving pages without touching an image.
 */
export function loadSharp(): Promise<SharpFactory> {
  loading ??= import("sharp").then(({ default: sharp }) => {
    // Encoding runs on libuv's pool, never on the event loop; these bounds keep uploads from
    // taking every thread that other requests (and the database driver) need.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
