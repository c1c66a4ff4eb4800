import type { Kysely } from "kysely";
import pLimit from "p-limit";
import { DomainError, MediaInUseError, type MediaUser } from "#domain/errors.ts";
import {
  isImageFormat,
  MEDIA_PATH_PATTERN,
  type MediaImage,
  mediaUrl,
  type UploadedMedia,
  variantWidthsFor,
} from "#domain/media.ts";
import type { Database } from "../kernel/db/schema.ts";
import { processImage, sha256Hex } from "./process.ts";
import type { MediaFile, MediaFileKey, MediaStore } from "./store.ts";
import * as media from "./repositories/media.ts";

/** The posts and the pages among an image's uses, as the library and a refused deletion name them. */
function usersOf(uses: readonly media.MediaUse[]): { posts: MediaUser[]; pages: MediaUser[] } {
  const usersOfKind = (kind: media.MediaUse["kind"]) =>
    uses.filter((use) => use.kind === kind).map((use) => ({ id: use.postId, title: use.title }));
  return { posts: usersOfKind("post"), pages: usersOfKind("page") };
}

export const MEDIA_PAGE_SIZE = 24;
/** How long an image no post uses is kept before `media prune` may remove it. */
export const UNUSED_MEDIA_GRACE_DAYS = 30;
/** Images encoded at once; each takes one of the two cores' worth of sharp threads. */
export const UPLOAD_CONCURRENCY = 2;
const PRUNE_BATCH = 100;

export interface MediaServiceDeps {
  db: Kysely<Database>;
  store: MediaStore;
  now: () => Date;
}

export interface UploadInput {
  bytes: Buffer;
  name: string;
  declaredType: string;
  uploadedBy: string;
}

export interface LibraryItem extends MediaImage {
  url: string;
  originalName: string;
  bytes: number;
  createdAt: string;
  /** The posts and the pages that show it. */
  posts: MediaUser[];
  pages: MediaUser[];
}

export function describeMedia(record: media.MediaRecord): MediaImage {
  return {
    hash: record.hash,
    width: record.width,
    height: record.height,
    format: record.format,
    widths: variantWidthsFor(record.width),
  };
}

/** The address an editor inserts: the largest variant, from which pages derive every smaller one. */
export function insertableUrl(image: MediaImage): string {
  return mediaUrl(image.hash, image.widths.at(-1)!, image.format);
}

export function createMediaService({ db, store, now }: MediaServiceDeps) {
  const encodeSlot = pLimit(UPLOAD_CONCURRENCY);
  const listPrunable = async (limit = PRUNE_BATCH) => {
    const cutoff = new Date(now().getTime() - UNUSED_MEDIA_GRACE_DAYS * 24 * 60 * 60 * 1000).toISOString();
    return media.listUnusedMedia(db, cutoff, limit);
  };

  return {
    /** Checks, encodes and stores an upload; the same bytes again return the stored image. */
    async upload(input: UploadInput): Promise<UploadedMedia> {
      const existing = await media.findMedia(db, sha256Hex(input.bytes));
      if (existing) {
        const image = describeMedia(existing);
        return { ...image, url: insertableUrl(image) };
      }
      const processed = await encodeSlot(() => processImage(input.bytes, input.declaredType));
      // Files first: a record never points at files that are not there yet.
      await store.put(processed.hash, processed.variants);
      await media.insertMedia(db, {
        hash: processed.hash,
        originalName: input.name.slice(0, 255),
        mime: processed.mime,
        width: processed.width,
        height: processed.height,
        bytes: input.bytes.byteLength,
        createdAt: now().toISOString(),
        uploadedBy: input.uploadedBy,
      });
      const image: MediaImage = {
        hash: processed.hash,
        width: processed.width,
        height: processed.height,
        format: processed.format,
        widths: variantWidthsFor(processed.width),
      };
      return { ...image, url: insertableUrl(image) };
    },

    /** One file to serve; undefined for anything not stored, including widths nobody made. */
    async getFile(hash: string, width: number | "original", format: string): Promise<MediaFile | undefined> {
      if (!isImageFormat(format)) return undefined;
      return store.get(hash, width === "original" ? 0 : width, format);
    },

    /**
     * The size in bytes of each of this site's own images among `paths` (a page's covers, say),
     * by path, in one query; other addresses and files no longer stored are left out.
     */
    async fileSizes(paths: readonly string[]): Promise<Map<string, number>> {
      const keys = new Map<string, MediaFileKey>();
      for (const path of paths) {
        const [, hash, width, format] = MEDIA_PATH_PATTERN.exec(path) ?? [];
        if (!hash || !width || !format || !isImageFormat(format)) continue;
        keys.set(path, { hash, width: width === "original" ? 0 : Number(width), format });
      }
      if (keys.size === 0) return new Map();
      const found = await store.sizes([...keys.values()]);
      const sizes = new Map<string, number>();
      for (const [path, key] of keys) {
        const file = found.find(
          (candidate) =>
            candidate.hash === key.hash && candidate.width === key.width && candidate.format === key.format,
        );
        if (file) sizes.set(path, file.size);
      }
      return sizes;
    },

    async listLibrary(page: number) {
      const [records, total] = await Promise.all([
        media.listMediaPage(db, { limit: MEDIA_PAGE_SIZE, offset: (page - 1) * MEDIA_PAGE_SIZE }),
        media.countMedia(db),
      ]);
      const uses = await media.listMediaUses(
        db,
        records.map((record) => record.hash),
      );
      const items: LibraryItem[] = records.map((record) => {
        const image = describeMedia(record);
        return {
          ...image,
          url: insertableUrl(image),
          originalName: record.originalName,
          bytes: record.bytes,
          createdAt: record.createdAt,
          ...usersOf(uses.filter((use) => use.hash === record.hash)),
        };
      });
      return { items, page, pageCount: Math.max(1, Math.ceil(total / MEDIA_PAGE_SIZE)), total };
    },

    /** Deletes an image and its files, refused (with the posts) while a post shows it. */
    async deleteMedia(hash: string): Promise<void> {
      if (await media.deleteUnusedMedia(db, hash)) {
        await store.delete(hash);
        return;
      }
      const uses = await media.listMediaUses(db, [hash]);
      if (uses.length > 0) {
        const { posts, pages } = usersOf(uses);
        throw new MediaInUseError(posts, pages);
      }
      throw new DomainError("MEDIA_NOT_FOUND", "Image not found");
    },

    /** Images no post has used for the grace period, oldest first, up to `limit`. */
    listPrunable,

    /** Removes every image `listPrunable` names, batch by batch; the number removed. */
    async prune(): Promise<number> {
      let removed = 0;
      for (;;) {
        const batch = await listPrunable();
        let removedInBatch = 0;
        for (const record of batch) {
          const deleted = await media.deleteUnusedMedia(db, record.hash);
          if (!deleted) continue;
          await store.delete(record.hash);
          removedInBatch += 1;
        }
        removed += removedInBatch;
        if (batch.length < PRUNE_BATCH || removedInBatch === 0) return removed;
      }
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
