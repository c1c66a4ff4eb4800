import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";

/** The spec's six (docs/spec.md §2), in its order: what every blog had until categories became the writer's. */
const SPEC_CATEGORIES = ["Development", "Technology", "Design", "Business", "Marketing", "Tutorials"];

/**
 * The writer's categories (docs/decisions/0020-categories.md). `categories` holds each one's name
 * (what `posts.category` stores, and what `published_post_counts` counts by), its slug (the
 * address `/category/{slug}`), a description and the writer's order. `category_former_slugs`
 * keeps every address a category answered at before a rename (or the addresses of a category
 * deleted into it), each pointing at the category that answers now, so every old address is one
 * 301 away, however many renames later. Every blog starts with the spec's six, and with any other
 * category its posts already name.
 */
export function categoriesSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("categories")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull().unique())
        .addColumn("slug", "text", (col) => col.notNull().unique())
        .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
        .addColumn("position", "integer", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("category_former_slugs")
        .addColumn("slug", "text", (col) => col.primaryKey())
        .addColumn("category_id", "text", (col) => col.notNull().references("categories.id").onDelete("cascade"))
        .execute();
      await db.schema
        .createIndex("category_former_slugs_category")
        .on("category_former_slugs")
        .column("category_id")
        .execute();

      const stored = await sql<{ category: string }>`select distinct category from posts where category <> ''`.execute(
        db,
      );
      const others = stored.rows.map((row) => row.category).filter((name) => !SPEC_CATEGORIES.includes(name));
      const names = [...SPEC_CATEGORIES, ...others.sort()];
      for (const [position, name] of names.entries()) {
        const slug = name
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, "-")
          .replace(/^-+|-+$/g, "");
        await sql`insert into categories (id, name, slug, description, position)
          values (${randomBytes(12).toString("base64url")}, ${name}, ${slug || randomBytes(6).toString("hex")}, '', ${position})`.execute(
          db,
        );
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("category_former_slugs").ifExists().execute();
      await db.schema.dropTable("categories").ifExists().execute();
    },
  };
}
