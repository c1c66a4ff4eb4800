import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * How many published posts each category holds, kept by the database itself (docs/decisions/0005,
 * "Queries"). An exact count of 100,000 public posts walked 100,000 index entries on every
 * uncached list page (6–9 ms on SQLite). Triggers rather than the repository keep the counter,
 * so no write path (imports, restores, a future one) can forget it; they do the same on both
 * databases, in the transaction of the write. An update touches the counter only when it
 * publishes, unpublishes or moves a post, so an ordinary save never waits on the counter row
 * (an import holds it until it commits). The count of public posts is this counter less
 * the published posts whose time has not come (repositories/posts.ts, `countPublishedPosts`).
 *
 * Also an index for when each category last changed (the sitemap's `lastmod`): the newest
 * update of a category's published posts is one backward step on it, where grouping every
 * public post took 300 ms at 100,000 posts.
 */
export function publishedPostCountsSchema(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("published_post_counts")
        .addColumn("category", "text", (column) => column.primaryKey())
        .addColumn("posts", "integer", (column) => column.notNull())
        .execute();
      await sql`insert into published_post_counts (category, posts)
        select category, count(*) from posts where published = 1 group by category`.execute(db);

      if (dialect === "postgres") {
        await sql`create function published_post_counts_keep() returns trigger language plpgsql as $$
          begin
            if tg_op <> 'INSERT' then
              if old.published = 1 then
                update published_post_counts set posts = posts - 1 where category = old.category;
              end if;
            end if;
            if tg_op <> 'DELETE' then
              if new.published = 1 then
                insert into published_post_counts (category, posts) values (new.category, 1)
                  on conflict (category) do update set posts = published_post_counts.posts + 1;
              end if;
            end if;
            return null;
          end $$`.execute(db);
        await sql`create trigger published_post_counts_keep after insert or delete on posts
          for each row execute function published_post_counts_keep()`.execute(db);
        await sql`create trigger published_post_counts_move after update of published, category on posts
          for each row when (old.published <> new.published or old.category <> new.category)
          execute function published_post_counts_keep()`.execute(db);
      } else {
        await sql`create trigger published_post_counts_insert after insert on posts when new.published = 1
          begin
            insert into published_post_counts (category, posts) values (new.category, 1)
              on conflict (category) do update set posts = posts + 1;
          end`.execute(db);
        await sql`create trigger published_post_counts_delete after delete on posts when old.published = 1
          begin
            update published_post_counts set posts = posts - 1 where category = old.category;
          end`.execute(db);
        await sql`create trigger published_post_counts_update after update of published, category on posts
          when old.published <> new.published or old.category <> new.category
          begin
            update published_post_counts set posts = posts - 1 where category = old.category and old.published = 1;
            insert into published_post_counts (category, posts) select new.category, 1 where new.published = 1
              on conflict (category) do update set posts = posts + 1;
          end`.execute(db);
      }

      await db.schema
        .createIndex("posts_category_public_updated_at")
        .on("posts")
        .columns(["category", "published", "updated_at"])
        .execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("posts_category_public_updated_at").ifExists().execute();
      if (dialect === "postgres") {
        await sql`drop trigger if exists published_post_counts_move on posts`.execute(db);
        await sql`drop trigger if exists published_post_counts_keep on posts`.execute(db);
        await sql`drop function if exists published_post_counts_keep()`.execute(db);
      } else {
        for (const event of ["insert", "delete", "update"]) {
          await sql`drop trigger if exists ${sql.raw(`published_post_counts_${event}`)}`.execute(db);
        }
      }
      await db.schema.dropTable("published_post_counts").ifExists().execute();
    },
  };
}
