import type { Insertable, Kysely, Transaction } from "kysely";
import { type Database, POST_COLUMNS } from "../../kernel/db/schema.ts";
import { MEDIA_COLUMNS } from "../../media/index.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** A table exported as one array of rows: which columns, and the unique key its pages follow. */
interface ExportedTable<Table extends keyof Database> {
  table: Table;
  key: keyof Database[Table] & string;
  columns: readonly (keyof Database[Table] & string)[];
}

function exported<Table extends keyof Database>(spec: ExportedTable<Table>): ExportedTable<Table> {
  return spec;
}

/** Tables and columns an export leaves out on purpose, each with the reason. */
export const NOT_EXPORTED: Record<string, string> = {
  post_tags: "exported inside each post as its `tags` list",
  settings: "exported as `site`, one property per setting",
  post_search: "derived from published posts; rebuilt when they are imported",
  published_post_counts: "counted again by the database as the imported posts are written",
  tag_post_counts: "counted again by the database as the imported posts and their tags are written",
  author_post_counts: "counted again by the database as the imported posts are written",
  // SQLite's FTS5 keeps post_search in these shadow tables.
  post_search_data: "FTS5 storage of post_search",
  post_search_idx: "FTS5 storage of post_search",
  post_search_content: "FTS5 storage of post_search",
  post_search_docsize: "FTS5 storage of post_search",
  post_search_config: "FTS5 storage of post_search",
  sessions: "sign-ins end when the blog moves",
  rate_limits: "short-lived counters",
  setup_tokens: "one-time links, useless elsewhere",
  comment_spam_addresses: "address hashes under this blog's secret salt mean nothing to another blog",
  "admins.password_hash": "an export never carries password hashes",
  "comments.ip_hash": "an address hash is personal data, and meaningless under another blog's salt",
  "subscribers.confirmation_requested_at": "a confirmation email still to be queued by this blog's worker",
  site_settings: "exported inside `site` as `siteSettings`",
  email_server: "the mail server's password is sealed under this blog's secret; set email up again after moving",
  "posts.content_html": "rendered again from `content` and `format` when imported",
  "posts.reading_minutes": "worked out again from the body when imported",
  "posts.search_key": "the key of the post's search row, given again when imported",
  post_preview_tokens: "secret preview links, useless elsewhere",
  page_preview_tokens: "secret preview links, useless elsewhere",
  "pages.content_html": "rendered again from `content` and `format` when imported",
  page_media_uses: "derived from the pages that show each image",
  "categories.id": "categories are named by their name, which posts carry; the importing blog gives its own ids",
  category_former_slugs:
    "former addresses redirect on the blog that published them; each category keeps its current slug",
  post_slug_history: "former addresses redirect on the blog that published them; each post keeps its current slug",
  media: "not in the JSON document (posts keep their /media/ links); the .zip export carries it as media.json",
  media_variants: "the .zip export carries every file at its URL path, media/{hash}/{original|width}.{format}",
  media_uses: "derived from the posts that show each image",
  invitations: "one-time links, useless elsewhere",
  password_resets: "one-time links, useless elsewhere",
  recovery_codes: "two-factor secrets stay with the blog that issued them",
  audit_log: "this blog's own record of who signed in and changed what, not content",
  "admins.totp_secret": "two-factor secrets stay with the blog; turn two-factor sign-in on again after moving",
  "admins.totp_enabled_at": "two-factor sign-in is turned on again after moving",
  "admins.totp_last_step": "two-factor sign-in is turned on again after moving",
  "admins.avatar": "an author's picture stays in this blog's media store; upload it again after moving",
  "admins.writing_view": "the editor's view each writer last chose: one click in the editor after moving",
  email_sends: "this blog's record of the emails it sent; a post is not emailed again from another blog",
  email_deliveries: "one row per recipient of each email sent, with the address: this blog's delivery log, not content",
  subscriber_imports: "how this blog's latest subscriber CSV import went, not content",
  fediverse_followers:
    "accounts that follow this blog's actor, whose keys stay with it; they follow the blog again after moving",
  fediverse_reactions: "likes and boosts other servers reported to this blog: counts it keeps, not content",
  "comments.remote_note_url": "a reply from the fediverse travels as a comment (its author's name and text)",
  "comments.remote_actor_url": "a reply from the fediverse travels as a comment (its author's name and text)",
  "comments.remote_actor_handle": "a reply from the fediverse travels as a comment (its author's name and text)",
  app_keys: "keys for writing apps hold secrets of this blog's server; each app is given a new key after moving",
  indieauth_codes: "IndieAuth sign-in codes live minutes and are used once: nothing to move",
  indieauth_tokens: "apps signed in with IndieAuth sign in again after moving, as apps with keys are given new keys",
  comment_email_digests: "which days' comment digests this blog has sent, not content",
  comment_reply_addresses:
    "readers' addresses for reply emails, sealed under this blog's secret: personal data no other blog can open",
  comment_reply_notices: "which reply emails this blog has sent, not content",
  comment_reply_optouts: "addresses (as hashes under this blog's secret) that asked for no reply emails",
  "comments.remote_via":
    "a reply by Webmention or from the fediverse travels as a comment (its author's name and text)",
  "posts.webmentions_queued_at": "when this blog last told the pages a post links; a moved blog tells them again",
  "posts.webhooks_announced_at":
    "when this blog's webhooks last heard a post was published; a receiver belongs to one blog",
  webmention_jobs: "this blog's queue of mentions to check and notices to send, not content",
  webmentions:
    "what other sites said of each post, checked by this blog: it checks them again when they are sent again",
  fedify_kv: "Fedify's cache of remote documents and its bookkeeping, rebuilt as it is needed",
  fedify_messages: "deliveries still queued to this blog's followers, who stay with it",
  fediverse_posts: "what this blog's followers were sent about each post; a moved blog starts without followers",
  fediverse_keys: "the actor's private keys: secret, and of no use to an actor at another address",
  // Visitor statistics are this blog's record of its readers, not content; the Analytics screen's CSV gives them out.
  analytics_events: "raw page views with day-salted visitor keys, kept for the retention only",
  analytics_salts: "the day's secret salt, deleted when the day ends",
  analytics_rollup_state: "how far this blog's rollups have read its own events",
  analytics_daily: "statistics, not content: /admin/analytics/export.csv gives them out",
  analytics_monthly: "statistics, not content: /admin/analytics/export.csv gives them out",
  analytics_hourly: "statistics, not content: /admin/analytics/export.csv gives them out",
  analytics_feed_fetches: "day-salted keys of feed readers, kept for the retention only",
  analytics_feed_daily: "statistics, not content",
  webhooks:
    "the URLs this blog tells of its changes, with signing secrets sealed under this blog's secret; set them again after moving",
  webhook_deliveries: "this blog's queue and log of webhook calls, not content",
  link_previews: "other sites' Open Graph tags, fetched again when a post is saved after a move",
};

/**
 * What an export holds, section by section, in the order an import needs them (posts before
 * their comments, pages before their revisions). A new column is one line here, or one line in NOT_EXPORTED with the reason;
 * tests/integration/portability.test.ts fails while a column is in neither. A posts column is
 * exported unless NOT_EXPORTED names it (the column map is server/kernel/db/schema.ts).
 */
export const EXPORTED_SECTIONS = {
  // Before posts: a post names its category, and an import adds the ones the blog lacks first.
  categories: exported({ table: "categories", key: "name", columns: ["name", "slug", "description", "position"] }),
  posts: exported({
    table: "posts",
    key: "id",
    // Every column of the posts column map but those NOT_EXPORTED says why it leaves out.
    columns: (Object.keys(POST_COLUMNS) as (keyof typeof POST_COLUMNS)[]).filter(
      (column) => !(`posts.${column}` in NOT_EXPORTED),
    ),
  }),
  comments: exported({
    table: "comments",
    key: "id",
    columns: [
      "id",
      "post_id",
      "author",
      "content",
      "created_at",
      "status",
      "held_reason",
      "parent_id",
      "author_user_id",
    ],
  }),
  revisions: exported({
    table: "post_revisions",
    key: "id",
    columns: ["id", "post_id", "number", "kind", "saved_by", "title", "content", "format", "created_at"],
  }),
  // Built-in pages too: an import puts them in place of the blog's own About, Privacy and Terms.
  pages: exported({
    table: "pages",
    key: "id",
    columns: [
      "id",
      "slug",
      "title",
      "content",
      "format",
      "description",
      "published",
      "show_last_updated",
      "built_in",
      "edited_at",
      "created_at",
      "updated_at",
    ],
  }),
  pageRevisions: exported({
    table: "page_revisions",
    key: "id",
    columns: ["id", "page_id", "number", "kind", "saved_by", "title", "content", "format", "created_at"],
  }),
  users: exported({
    table: "admins",
    key: "id",
    columns: ["id", "email", "display_name", "role", "created_at", "slug", "bio"],
  }),
  importSources: exported({ table: "import_sources", key: "source_key", columns: ["source_key", "target_id"] }),
  // Each with their state; no token is stored (links are signed: docs/decisions/0014).
  subscribers: exported({
    table: "subscribers",
    key: "id",
    columns: ["id", "email", "state", "source", "created_at", "confirmed_at", "unsubscribed_at", "bounces"],
  }),
} as const;

export type ExportSection = keyof typeof EXPORTED_SECTIONS;

/** Every `table.column` in the database that the export neither includes nor leaves out on purpose. */
export async function findUnclassifiedColumns(db: Kysely<Database>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  const included = new Set(
    Object.values(EXPORTED_SECTIONS).flatMap((spec) => spec.columns.map((column) => `${spec.table}.${column}`)),
  );
  return tables.flatMap((table) =>
    table.name in NOT_EXPORTED
      ? []
      : table.columns
          .map((column) => `${table.name}.${column.name}`)
          .filter((name) => !included.has(name) && !(name in NOT_EXPORTED)),
  );
}

export type ExportRow = Record<string, unknown>;

/** One page of a section's rows, after the given key, in key order. */
export async function readExportPage(
  db: Db,
  section: ExportSection,
  after: string | undefined,
  limit: number,
): Promise<ExportRow[]> {
  // The spec's own names, checked where EXPORTED_SECTIONS is declared; Kysely cannot follow a union of tables here.
  const spec = EXPORTED_SECTIONS[section] as ExportedTable<"posts">;
  let query = db.selectFrom(spec.table).select(spec.columns).orderBy(spec.key).limit(limit);
  if (after !== undefined) query = query.where(spec.key, ">", after);
  return (await query.execute()) as ExportRow[];
}

export async function readAllSettings(db: Db): Promise<{ key: string; value: string }[]> {
  // A handful of keys, one per setting the writer can change.
  return db.selectFrom("settings").select(["key", "value"]).orderBy("key").execute();
}

export async function settingExists(db: Db, key: string): Promise<boolean> {
  return (await db.selectFrom("settings").select("key").where("key", "=", key).executeTakeFirst()) !== undefined;
}

export async function insertSetting(db: Db, key: string, value: string): Promise<void> {
  await db.insertInto("settings").values({ key, value }).execute();
}

export async function rowExists(db: Db, section: "posts" | "comments" | "revisions", id: string): Promise<boolean> {
  const table = EXPORTED_SECTIONS[section].table;
  return (await db.selectFrom(table).select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/** Where an earlier import put the item with this source key, if it did. */
export async function findImportTarget(db: Db, sourceKey: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("import_sources")
    .select("target_id")
    .where("source_key", "=", sourceKey)
    .executeTakeFirst();
  return row?.target_id;
}

export async function recordImportSource(db: Db, sourceKey: string, targetId: string): Promise<void> {
  await db.insertInto("import_sources").values({ source_key: sourceKey, target_id: targetId }).execute();
}

export type CommentRow = Omit<Insertable<Database["comments"]>, "ip_hash">;

export type RevisionRow = Insertable<Database["post_revisions"]>;

export async function insertImportedRevision(db: Db, row: RevisionRow): Promise<void> {
  await db.insertInto("post_revisions").values(row).execute();
}

export async function insertImportedComment(db: Db, row: CommentRow): Promise<void> {
  await db
    .insertInto("comments")
    .values({ ...row, ip_hash: null })
    .execute();
}

/** An image's record as media.json carries it: whether it is in use is this blog's to work out again. */
const MEDIA_EXPORT_COLUMNS = MEDIA_COLUMNS.filter((column) => column !== "unused_since");

/** One page of uploaded images' records (not their files), in hash order after `after`. */
export async function readMediaExportPage(db: Db, after: string | undefined, limit: number): Promise<ExportRow[]> {
  let query = db.selectFrom("media").select(MEDIA_EXPORT_COLUMNS).orderBy("hash").limit(limit);
  if (after !== undefined) query = query.where("hash", ">", after);
  return query.execute();
}

/** Which files each of these images has (original and widths), without their bytes. */
export async function readMediaFileKeys(
  db: Db,
  hashes: readonly string[],
): Promise<{ hash: string; width: number; format: string }[]> {
  if (hashes.length === 0) return [];
  const rows = await db
    .selectFrom("media_variants")
    .select(["hash", "width", "format"])
    .where("hash", "in", hashes)
    .orderBy("hash")
    .orderBy("width")
    .orderBy("format")
    .execute();
  return rows.map((row) => ({ ...row, width: Number(row.width) }));
}
