import type { Kysely } from "kysely";
import type { ImageFormat } from "#domain/media.ts";
import type { Database } from "../../kernel/db/schema.ts";
import type { MediaFile, MediaFileInfo, MediaFileKey, MediaStore } from "../store.ts";

/** Files as BLOB (SQLite) or bytea (PostgreSQL): every app server sees them, and backups hold them. */
export function createDatabaseMediaStore(db: Kysely<Database>): MediaStore {
  return {
    async put(hash, files) {
      // One statement per file: a file can be megabytes, and a batch would hold them all at once.
      for (const file of files) {
        await db
          .insertInto("media_variants")
          .values({
            hash,
            width: file.width,
            format: file.format,
            height: file.height,
            size: file.bytes.byteLength,
            bytes: file.bytes,
          })
          .onConflict((conflict) => conflict.columns(["hash", "width", "format"]).doNothing())
          .execute();
      }
    },

    async get(hash, width, format) {
      const row = await db
        .selectFrom("media_variants")
        .select(["width", "height", "format", "bytes"])
        .where("hash", "=", hash)
        .where("width", "=", width)
        .where("format", "=", format)
        .executeTakeFirst();
      return row ? ({ ...row, format: row.format as ImageFormat } satisfies MediaFile) : undefined;
    },

    async list(hash): Promise<MediaFileInfo[]> {
      const rows = await db
        .selectFrom("media_variants")
        .select(["width", "height", "format", "size"])
        .where("hash", "=", hash)
        .orderBy("width")
        .orderBy("format")
        .execute();
      return rows.map((row) => ({ ...row, format: row.format as ImageFormat }));
    },

    async sizes(files: readonly MediaFileKey[]) {
      if (files.length === 0) return [];
      const rows = await db
        .selectFrom("media_variants")
        .select(["hash", "width", "format", "size"])
        .where((eb) =>
          eb.or(
            files.map((file) =>
              eb.and([eb("hash", "=", file.hash), eb("width", "=", file.width), eb("format", "=", file.format)]),
            ),
          ),
        )
        .execute();
      return rows.map((row) => ({ ...row, format: row.format as ImageFormat, size: Number(row.size) }));
    },

    async delete(hash) {
      await db.deleteFrom("media_variants").where("hash", "=", hash).execute();
    },
  };
}
