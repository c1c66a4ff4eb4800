import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";
import { renderPostBody } from "../../../render/index.ts";

/**
 * Pages (docs/decisions/0018-pages.md): the writer's own pages at /{slug}, in a table of their
 * own so the posts' list indexes, counters and search index never see them; their revisions,
 * preview links and image uses beside them, as posts have. About, Privacy and Terms are written
 * here as the pages they were, marked `built_in` and never `edited_at`: until the writer saves
 * one, it keeps the design it shipped with (app/components/site/built-in-pages/).
 */
export function pagesSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("pages")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("slug", "text", (col) => col.notNull().unique())
        .addColumn("title", "text", (col) => col.notNull())
        .addColumn("content", "text", (col) => col.notNull())
        .addColumn("format", "text", (col) => col.notNull().check(sql`format in ('markdown', 'html')`))
        .addColumn("content_html", "text", (col) => col.notNull())
        .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
        .addColumn("published", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("show_last_updated", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("built_in", "text", (col) => col.unique())
        .addColumn("edited_at", timestamp)
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addColumn("updated_at", timestamp, (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("page_revisions")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("page_id", "text", (col) => col.notNull().references("pages.id").onDelete("cascade"))
        .addColumn("number", "integer", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull().check(sql`kind in ('save', 'autosave', 'restore')`))
        .addColumn("saved_by", "text", (col) => col.notNull())
        .addColumn("title", "text", (col) => col.notNull())
        .addColumn("content", "text", (col) => col.notNull())
        .addColumn("format", "text", (col) => col.notNull())
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addUniqueConstraint("page_revisions_page_number", ["page_id", "number"])
        .execute();

      await db.schema
        .createTable("page_preview_tokens")
        .addColumn("token_hash", "text", (col) => col.primaryKey())
        .addColumn("page_id", "text", (col) => col.notNull().references("pages.id").onDelete("cascade"))
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .execute();
      await db.schema.createIndex("page_preview_tokens_page_id").on("page_preview_tokens").column("page_id").execute();

      await db.schema
        .createTable("page_media_uses")
        .addColumn("hash", "text", (col) => col.notNull())
        .addColumn("page_id", "text", (col) => col.notNull().references("pages.id").onDelete("cascade"))
        .addPrimaryKeyConstraint("page_media_uses_pkey", ["hash", "page_id"])
        .execute();
      await db.schema
        .createIndex("page_media_uses_page_id")
        .on("page_media_uses")
        .columns(["page_id", "hash"])
        .execute();

      const now = new Date().toISOString();
      const pages = db as unknown as Kysely<{ pages: Record<string, string | number | null> }>;
      for (const page of BUILT_IN_PAGE_SOURCES) {
        await pages
          .insertInto("pages")
          .values({
            id: randomBytes(12).toString("base64url"),
            slug: page.builtIn,
            title: page.title,
            content: page.content,
            format: "markdown",
            content_html: renderPostBody("markdown", page.content).html,
            description: page.description,
            published: 1,
            show_last_updated: page.showLastUpdated ? 1 : 0,
            built_in: page.builtIn,
            edited_at: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ["page_media_uses", "page_preview_tokens", "page_revisions", "pages"]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}

/** The spec's About, Privacy and Terms as Markdown: what the editor opens with. */
const BUILT_IN_PAGE_SOURCES = [
  {
    builtIn: "about",
    title: "About",
    description: "Who writes Inkwell, and how to get in touch.",
    showLastUpdated: false,
    content: `Inkwell is a small, self-hosted blog about building for the web. The posts are practical and unhurried: what worked, what did not, and why.

## The team

- **Maya Chen**, editor and developer. Writes about TypeScript, testing and the tools that keep code honest.
- **Daniel Okafor**, infrastructure. Keeps small servers fast, patched and boring, and writes down how.
- **Sofia Lindqvist**, design. Cares about type, colour and layouts that hold up on every screen.

## Contact

Tell readers here how to reach you: an email address, a fediverse handle or a form of your own. (Until this page is first saved, it shows a demo contact form that sends nothing.)
`,
  },
  {
    builtIn: "privacy",
    title: "Privacy Policy",
    description: "What Inkwell stores about visitors, and why.",
    showLastUpdated: true,
    content: `Inkwell is a personal blog. It collects as little as it can, and never sells or shares what it keeps with advertisers.

## What we store

- **Comments.** The name and text you enter are stored and shown publicly with the post.
- **Newsletter.** If you subscribe, only your email address and the state of your subscription (waiting for confirmation, subscribed, unsubscribed) are kept. Emails carry no tracking pixel and no rewritten links: we do not know whether you open them or what you click. Every email has a link to unsubscribe in one click.
- **Your theme choice.** Light or dark is remembered in your own browser's storage and never sent to us.
- **Server logs.** Requests, including your IP address, are logged to keep the site running and to limit abuse such as comment spam.

## Visitor statistics

To know which posts are read and where readers come from, this site counts page views itself, in its own database. No cookie is set, nothing is written to your browser's storage, and nothing is sent to anyone else.

- **What is counted.** When a page loads in your browser, a small script sends one request with the page's address, the site that linked to it (only its name, such as google.com, and any \`utm_\` campaign tags in the link) and whether your screen is small, medium or large. The server adds the time, your browser, operating system and kind of device as your browser names them, and your country if the owner has set up a country lookup (made on this server from a file: your address is sent nowhere).
- **Counting visitors without knowing them.** To count each visitor once a day, the server makes a one-way code from your IP address, your browser's user agent (its name and version), this site's address and a random value that changes every day and is deleted when the day is over. The code cannot be turned back into your address, and tomorrow's code for you is unrelated to today's, so no one, not even the owner, can follow you from one day to the next. Your IP address is never stored with these figures.
- **What is not counted.** Nothing is counted when your browser sends Do Not Track or Global Privacy Control, when JavaScript is off, for crawlers and other bots, or for the site's signed-in writers. Pages that were not found are counted apart, by address only.
- **Feed readers.** Apps that fetch the RSS, Atom or JSON feed are counted once a day by their name and the number of subscribers they state, nothing more.
- **How long.** Single page views are deleted after 30 days, or the period the owner sets; only daily totals (views and visitors per page, source, browser and so on) are kept. The owner can turn counting off entirely.

## Children

This site is not directed at children. You must be at least 18 years old to leave a comment.

## Changes to this policy

We will give at least 30 days notice on this page before any change to this policy takes effect.

## Contact

Questions about your data? See the [contact section](/about#contact) of the About page.
`,
  },
  {
    builtIn: "terms",
    title: "Terms of Service",
    description: "The rules for reading and commenting on Inkwell.",
    showLastUpdated: true,
    content: `By reading or commenting on Inkwell you agree to these terms.

## Who may comment

You must be at least 18 years old to post a comment.

## Your comments

- You keep the rights to what you write; you allow us to show it next to the post.
- Be civil. Spam, harassment and anything unlawful will be removed.
- Comments are limited in length and in how often they can be posted, to keep the discussion readable.

## Content

Posts are personal opinions, offered as they are, without warranty. Code samples may be reused under the terms stated in the post.

## Changes to these terms

We will give at least 30 days notice on this page before any change to these terms takes effect.

See also the [Privacy Policy](/privacy).
`,
  },
] as const;
