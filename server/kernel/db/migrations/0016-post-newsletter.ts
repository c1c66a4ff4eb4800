import { type Kysely, sql } from "kysely";

/**
 * A post's email (docs/decisions/0014-newsletter-outbox.md): 'off', 'wanted', 'sent' or 'closed',
 * kept on the post so an export carries it and a restored blog does not email an old post again.
 * Posts public today are closed: they became public before email existed here. A draft's past is
 * unknown; it stays 'off' and may be emailed when published with the box ticked. The partial
 * index holds only the posts waiting for their time, the few the worker's tick looks for.
 */
export function postNewsletterSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("posts")
        .addColumn("newsletter", "text", (col) => col.notNull().defaultTo("off"))
        .execute();
      const posts = db as unknown as Kysely<{
        posts: { newsletter: string; published: number; publish_at: string | null };
      }>;
      await posts
        .updateTable("posts")
        .set({ newsletter: "closed" })
        .where("published", "=", 1)
        .where((eb) => eb.or([eb("publish_at", "is", null), eb("publish_at", "<=", new Date().toISOString())]))
        .execute();
      await db.schema
        .createIndex("posts_newsletter_wanted")
        .on("posts")
        .column("publish_at")
        .where(sql.ref("newsletter"), "=", "wanted")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("posts_newsletter_wanted").ifExists().execute();
      await db.schema.alterTable("posts").dropColumn("newsletter").execute();
    },
  };
}
