import type { Kysely } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * Uploaded images live in the database (docs/decisions/0010-media-in-the-database.md):
 * `media` describes each image by the SHA-256 of its uploaded bytes, `media_variants` holds
 * the encoded files, and `media_uses` says which posts show which image, kept up to date
 * whenever a post is saved, so the library and the prune need no scan of post bodies.
 */
export function mediaSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  const bytes = dialect === "postgres" ? "bytea" : "blob";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("media")
        .addColumn("hash", "text", (col) => col.primaryKey())
        .addColumn("original_name", "text", (col) => col.notNull())
        .addColumn("mime", "text", (col) => col.notNull())
        .addColumn("width", "integer", (col) => col.notNull())
        .addColumn("height", "integer", (col) => col.notNull())
        .addColumn("bytes", "integer", (col) => col.notNull())
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addColumn("uploaded_by", "text", (col) => col.notNull())
        // Since when no post has used the image; null while one does. The prune reads it.
        .addColumn("unused_since", timestamp)
        .execute();
      await db.schema.createIndex("media_created_at").on("media").columns(["created_at", "hash"]).execute();
      await db.schema.createIndex("media_unused_since").on("media").columns(["unused_since"]).execute();

      await db.schema
        .createTable("media_variants")
        .addColumn("hash", "text", (col) => col.notNull())
        // 0 is the original's row: full size, in the uploaded format, without metadata.
        .addColumn("width", "integer", (col) => col.notNull())
        .addColumn("format", "text", (col) => col.notNull())
        .addColumn("height", "integer", (col) => col.notNull())
        .addColumn("size", "integer", (col) => col.notNull())
        .addColumn("bytes", bytes, (col) => col.notNull())
        .addPrimaryKeyConstraint("media_variants_pkey", ["hash", "width", "format"])
        .execute();

      await db.schema
        .createTable("media_uses")
        .addColumn("hash", "text", (col) => col.notNull())
        .addColumn("post_id", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("media_uses_pkey", ["hash", "post_id"])
        .execute();
      await db.schema.createIndex("media_uses_post_id").on("media_uses").columns(["post_id", "hash"]).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("media_uses").ifExists().execute();
      await db.schema.dropTable("media_variants").ifExists().execute();
      await db.schema.dropTable("media").ifExists().execute();
    },
  };
}
