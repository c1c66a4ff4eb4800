import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * How many published posts carry each tag and sign each byline, kept by the database itself
 * (as published_post_counts, migration 0013; docs/decisions/0034). The Content API's
 * `include=count.posts` counted every public post of a page's tags and authors: seconds at
 * 100,000 posts, behind a public key. Triggers keep the counters in the transaction of every
 * write of a post's `published` flag, byline or tag rows, on both databases, so no write path
 * (the posts service, imports, restores) can forget them. They count published posts whatever
 * their time: a scheduled post becomes public by the clock, with no write, so a reader takes
 * away the published posts whose time has not come (a range of posts_publish_at).
 *
 * Also `posts.webhooks_announced_at`: when the post's `post.published` webhook event was queued,
 * the mark a scheduled post's arrival is claimed by, once, as `webmentions_queued_at` is for
 * Webmention (server/posts/repositories/arrivals.ts; docs/decisions/0035).
 */
export function postCountsAndArrivalsSchema(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("posts")
        .addColumn("webhooks_announced_at", dialect === "postgres" ? "timestamptz" : "text")
        .execute();
      await db.schema
        .createTable("tag_post_counts")
        .addColumn("tag_key", "text", (column) => column.primaryKey())
        .addColumn("posts", "integer", (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("author_post_counts")
        .addColumn("author", "text", (column) => column.primaryKey())
        .addColumn("posts", "integer", (column) => column.notNull())
        .execute();
      await sql`insert into tag_post_counts (tag_key, posts)
        select post_tags.tag_key, count(*) from post_tags inner join posts on posts.id = post_tags.post_id
        where posts.published = 1 group by post_tags.tag_key`.execute(db);
      await sql`insert into author_post_counts (author, posts)
        select author, count(*) from posts where published = 1 group by author`.execute(db);

      if (dialect === "postgres") {
        await sql`create function author_post_counts_keep() returns trigger language plpgsql as $$
          begin
            if tg_op <> 'INSERT' and old.published = 1 then
              update author_post_counts set posts = posts - 1 where author = old.author;
            end if;
            if tg_op <> 'DELETE' and new.published = 1 then
              insert into author_post_counts (author, posts) values (new.author, 1)
                on conflict (author) do update set posts = author_post_counts.posts + 1;
            end if;
            return null;
          end $$`.execute(db);
        await sql`create trigger author_post_counts_keep after insert or delete on posts
          for each row execute function author_post_counts_keep()`.execute(db);
        await sql`create trigger author_post_counts_move after update of published, author on posts
          for each row when (old.published <> new.published or old.author <> new.author)
          execute function author_post_counts_keep()`.execute(db);

        // A post's tag rows, counted while the post is published.
        await sql`create function tag_post_counts_rows() returns trigger language plpgsql as $$
          begin
            if tg_op <> 'INSERT' and exists (select 1 from posts where id = old.post_id and published = 1) then
              update tag_post_counts set posts = posts - 1 where tag_key = old.tag_key;
            end if;
            if tg_op <> 'DELETE' and exists (select 1 from posts where id = new.post_id and published = 1) then
              insert into tag_post_counts (tag_key, posts) values (new.tag_key, 1)
                on conflict (tag_key) do update set posts = tag_post_counts.posts + 1;
            end if;
            return null;
          end $$`.execute(db);
        await sql`create trigger tag_post_counts_rows after insert or delete on post_tags
          for each row execute function tag_post_counts_rows()`.execute(db);
        await sql`create trigger tag_post_counts_rows_move after update of tag_key, post_id on post_tags
          for each row execute function tag_post_counts_rows()`.execute(db);
        // A post published or unpublished moves all its tags at once.
        await sql`create function tag_post_counts_publish() returns trigger language plpgsql as $$
          begin
            insert into tag_post_counts (tag_key, posts)
              select tag_key, case when new.published = 1 then 1 else -1 end from post_tags where post_id = new.id
              on conflict (tag_key) do update set posts = tag_post_counts.posts + excluded.posts;
            return null;
          end $$`.execute(db);
        await sql`create trigger tag_post_counts_publish after update of published on posts
          for each row when (old.published <> new.published)
          execute function tag_post_counts_publish()`.execute(db);
        // A published post deleted with its tag rows still there (a cascade, not the service's
        // delete): by the time the cascade runs its post is gone, so its tags are counted off here.
        await sql`create function tag_post_counts_forget() returns trigger language plpgsql as $$
          begin
            update tag_post_counts set posts = posts - 1
              where tag_key in (select tag_key from post_tags where post_id = old.id);
            return old;
          end $$`.execute(db);
        await sql`create trigger tag_post_counts_forget before delete on posts
          for each row when (old.published = 1) execute function tag_post_counts_forget()`.execute(db);
      } else {
        await sql`create trigger author_post_counts_insert after insert on posts when new.published = 1
          begin
            insert into author_post_counts (author, posts) values (new.author, 1)
              on conflict (author) do update set posts = posts + 1;
          end`.execute(db);
        await sql`create trigger author_post_counts_delete after delete on posts when old.published = 1
          begin
            update author_post_counts set posts = posts - 1 where author = old.author;
          end`.execute(db);
        await sql`create trigger author_post_counts_update after update of published, author on posts
          when old.published <> new.published or old.author <> new.author
          begin
            update author_post_counts set posts = posts - 1 where author = old.author and old.published = 1;
            insert into author_post_counts (author, posts) select new.author, 1 where new.published = 1
              on conflict (author) do update set posts = posts + 1;
          end`.execute(db);

        await sql`create trigger tag_post_counts_insert after insert on post_tags
          when exists (select 1 from posts where id = new.post_id and published = 1)
          begin
            insert into tag_post_counts (tag_key, posts) values (new.tag_key, 1)
              on conflict (tag_key) do update set posts = posts + 1;
          end`.execute(db);
        await sql`create trigger tag_post_counts_delete after delete on post_tags
          when exists (select 1 from posts where id = old.post_id and published = 1)
          begin
            update tag_post_counts set posts = posts - 1 where tag_key = old.tag_key;
          end`.execute(db);
        await sql`create trigger tag_post_counts_update after update of tag_key, post_id on post_tags
          begin
            update tag_post_counts set posts = posts - 1 where tag_key = old.tag_key
              and exists (select 1 from posts where id = old.post_id and published = 1);
            insert into tag_post_counts (tag_key, posts) select new.tag_key, 1
              where exists (select 1 from posts where id = new.post_id and published = 1)
              on conflict (tag_key) do update set posts = posts + 1;
          end`.execute(db);
        await sql`create trigger tag_post_counts_publish after update of published on posts
          when old.published <> new.published
          begin
            insert into tag_post_counts (tag_key, posts)
              select tag_key, case when new.published = 1 then 1 else -1 end from post_tags where post_id = new.id
              on conflict (tag_key) do update set posts = posts + excluded.posts;
          end`.execute(db);
        await sql`create trigger tag_post_counts_forget before delete on posts when old.published = 1
          begin
            update tag_post_counts set posts = posts - 1
              where tag_key in (select tag_key from post_tags where post_id = old.id);
          end`.execute(db);
      }
    },

    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") {
        for (const [trigger, table] of [
          ["author_post_counts_keep", "posts"],
          ["author_post_counts_move", "posts"],
          ["tag_post_counts_rows", "post_tags"],
          ["tag_post_counts_rows_move", "post_tags"],
          ["tag_post_counts_publish", "posts"],
          ["tag_post_counts_forget", "posts"],
        ] as const) {
          await sql`drop trigger if exists ${sql.raw(trigger)} on ${sql.raw(table)}`.execute(db);
        }
        for (const fn of [
          "author_post_counts_keep",
          "tag_post_counts_rows",
          "tag_post_counts_publish",
          "tag_post_counts_forget",
        ]) {
          await sql`drop function if exists ${sql.raw(fn)}()`.execute(db);
        }
      } else {
        for (const trigger of [
          "author_post_counts_insert",
          "author_post_counts_delete",
          "author_post_counts_update",
          "tag_post_counts_insert",
          "tag_post_counts_delete",
          "tag_post_counts_update",
          "tag_post_counts_publish",
          "tag_post_counts_forget",
        ]) {
          await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
        }
      }
      await db.schema.dropTable("tag_post_counts").ifExists().execute();
      await db.schema.dropTable("author_post_counts").ifExists().execute();
      await db.schema.alterTable("posts").dropColumn("webhooks_announced_at").execute();
    },
  };
}
