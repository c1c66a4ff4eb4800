import type { ImageFormat } from "#domain/media.ts";

export interface MediaFile {
  /** 0 for the original. */
  width: number;
  height: number;
  format: ImageFormat;
  bytes: Uint8Array;
}

export type MediaFileInfo = Omit<MediaFile, "bytes"> & { size: number };

/**
 * Where the encoded files of an image live, by the SHA-256 of its upload. The database
 * store (server/repositories/media-store.ts) is the one in use; an S3-compatible store
 * would implement the same four calls, and nothing above this interface would change.
 */
export interface MediaStore {
  /** Stores the files; files already there under the same key are left as they are. */
  put(hash: string, files: MediaFile[]): Promise<void>;
  get(hash: string, width: number, format: ImageFormat): Promise<MediaFile | undefined>;
  list(hash: string): Promise<MediaFileInfo[]>;
  delete(hash: string): Promise<void>;
}
