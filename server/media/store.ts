import type { ImageFormat } from "#domain/media.ts";

export interface MediaFile {
  /** 0 for the original. */
  width: number;
  height: number;
  format: ImageFormat;
  bytes: Uint8Array;
}

export type MediaFileInfo = Omit<MediaFile, "bytes"> & { size: number };

/** One file of one image: `width` 0 is the original. */
export type MediaFileKey = Pick<MediaFile, "width" | "format"> & { hash: string };

/**
 * Where the encoded files of an image live, by the SHA-256 of its upload. The database
 * store (server/media/repositories/media-store.ts) is the one in use; an S3-compatible store
 * would implement the same five calls, and nothing above this interface would change.
 */
export interface MediaStore {
  /** Stores the files; files already there under the same key are left as they are. */
  put(hash: string, files: MediaFile[]): Promise<void>;
  get(hash: string, width: number, format: ImageFormat): Promise<MediaFile | undefined>;
  list(hash: string): Promise<MediaFileInfo[]>;
  /** The size in bytes of each of these files that is stored (a page's worth), in one look-up. */
  sizes(files: readonly MediaFileKey[]): Promise<(MediaFileKey & { size: number })[]>;
  delete(hash: string): Promise<void>;
}
