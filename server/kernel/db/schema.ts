import type { ColumnType, Generated } from "kysely";
import type { CommentStatus, RemoteVia } from "#domain/comment.ts";
import type { SubscriberSource, SubscriberState } from "#domain/newsletter.ts";
import type { Post, PostNewsletter } from "#domain/post.ts";
import type { MentionKind } from "#domain/webmention.ts";
import type { WebhookEvent } from "#domain/webhooks.ts";

/** Timestamps go in as ISO strings; PostgreSQL hands back Date, SQLite the stored text. */
type Timestamp = ColumnType<Date | string, string, string>;

export interface PostsTable {
  id: string;
  title: string;
  content: string;
  excerpt: string;
  author: string;
  cover_image: string;
  category: string;
  /** Unique; the column is nullable only because SQLite cannot add a NOT NULL column to a filled table. */
  slug: string;
  /** 0 or 1 in both databases, so one query layer needs no boolean conversion. */
  published: number;
  /** 'markdown' or 'html': how `content`, the source as typed, is written. */
  format: string;
  /** `content` rendered and sanitised at save time: what readers get. */
  content_html: string;
  reading_minutes: number;
  /** When a published post becomes public; null: at once. */
  publish_at: ColumnType<Date | string | null, string | null, string | null>;
  /** 0 or 1: the writer closed this post's comments. */
  comments_closed: ColumnType<number, number | undefined, number>;
  /** A published post's search row key, in list order (server/kernel/db/search-keys.ts); null for a draft. */
  search_key: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Where the post was first published, if not here: its page names it canonical. Empty: here. */
  canonical_url: ColumnType<string, string | undefined, string>;
  /** The post's email: 'off', 'wanted', 'sent' or 'closed' (domain/post.ts PostNewsletter). */
  newsletter: ColumnType<PostNewsletter, PostNewsletter | undefined, PostNewsletter>;
  /** 0 or 1: the writer turned off Webmentions to the pages this post links (migration 0029). */
  webmentions_off: ColumnType<number, number | undefined, number>;
  /** When the post's Webmentions were last queued (migration 0029); null: never. */
  webmentions_queued_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** When the post's `post.published` webhook event was last queued (migration 0037); null: never. */
  webhooks_announced_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

/**
 * How a posts column holds its `Post` field: as it is (`text`, `count`), 0 or 1 (`flag`),
 * 'markdown' or 'html' (`format`), a time kept as ISO text (`time`, `optional time`: null for none).
 */
export type PostColumnKind = "text" | "count" | "flag" | "format" | "time" | "optional time";

/** A posts column: the `Post` field it holds (null: none, the database's own), and whether only a single post carries it. */
export interface PostColumn {
  field: keyof Post | null;
  kind: PostColumnKind;
  /** The body: a single post carries it, lists never do. */
  body?: true;
}

/**
 * Every posts column, in the export's order: a new column is one line here beside its line in
 * PostsTable. The summary columns, the row mapping, what a save writes (posts/repositories/posts-rows.ts)
 * and the export's columns (portability/repositories/portability.ts) all follow from it.
 */
export const POST_COLUMNS = {
  id: { field: "id", kind: "text" },
  slug: { field: "slug", kind: "text" },
  title: { field: "title", kind: "text" },
  format: { field: "format", kind: "format" },
  content: { field: "content", kind: "text", body: true },
  excerpt: { field: "excerpt", kind: "text" },
  author: { field: "author", kind: "text" },
  cover_image: { field: "coverImage", kind: "text" },
  category: { field: "category", kind: "text" },
  published: { field: "published", kind: "flag" },
  comments_closed: { field: "commentsClosed", kind: "flag" },
  publish_at: { field: "publishAt", kind: "optional time" },
  created_at: { field: "createdAt", kind: "time" },
  updated_at: { field: "updatedAt", kind: "time" },
  canonical_url: { field: "canonicalUrl", kind: "text" },
  newsletter: { field: "newsletter", kind: "text" },
  webmentions_off: { field: "webmentionsOff", kind: "flag" },
  webmentions_queued_at: { field: null, kind: "optional time" },
  webhooks_announced_at: { field: null, kind: "optional time" },
  content_html: { field: "contentHtml", kind: "text", body: true },
  reading_minutes: { field: "readingMinutes", kind: "count" },
  search_key: { field: null, kind: "count" },
} as const satisfies Record<keyof PostsTable, PostColumn>;

export interface PostRevisionsTable {
  id: string;
  post_id: string;
  number: number;
  kind: "save" | "autosave" | "restore";
  /** The admin's email at the time. */
  saved_by: string;
  title: string;
  content: string;
  format: string;
  created_at: Timestamp;
}

export interface PostPreviewTokensTable {
  /** SHA-256 of the link's token. */
  token_hash: string;
  post_id: string;
  created_at: Timestamp;
}

export interface PostTagsTable {
  post_id: string;
  /** As the author typed it. */
  tag: string;
  /** Lower-cased, for "posts with tag X" lookups. */
  tag_key: string;
  position: number;
  /** The post's own `created_at`, copied (migration 0027), so a tag's posts are walked newest first on an index. */
  created_at: ColumnType<Date | string | null, string, string>;
}

/** PostgreSQL: a table with a trigram index. SQLite: an FTS5 table with the trigram tokenizer. */
/** One row per published post: SQLite's FTS5 rowid, or PostgreSQL's `rowid` column, is the post's `search_key`. */
export interface PostSearchTable {
  rowid: number;
  post_id: string;
  search_text: string;
}

/** Slugs a post had before: each answers with a permanent redirect to the post's current slug. */
export interface PostSlugHistoryTable {
  slug: string;
  post_id: string;
  created_at: Timestamp;
}

export interface CommentsTable {
  id: string;
  post_id: string;
  author: string;
  content: string;
  created_at: Timestamp;
  status: CommentStatus;
  /** HMAC-SHA-256 of the writer's address under a secret salt; null for comments made before moderation. */
  ip_hash: string | null;
  /** Why the policy held it, for the moderator; null when it was published at once. */
  held_reason: string | null;
  /** A reply from the fediverse (migration 0017): the note's id (unique), its author's profile and handle; null otherwise. */
  remote_note_url: ColumnType<string | null, string | null | undefined, string | null>;
  remote_actor_url: ColumnType<string | null, string | null | undefined, string | null>;
  remote_actor_handle: ColumnType<string | null, string | null | undefined, string | null>;
  /** The top-level comment this one replies to (migration 0025); null for a top-level comment. */
  parent_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The signed-in writer who wrote it (migration 0025); null for a reader's comment. */
  author_user_id: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * Where a remote comment came from (migration 0029): 'fediverse', or 'webmention' (then
   * `remote_note_url` is the page that replied); null for a comment written here.
   */
  remote_via: ColumnType<RemoteVia | null, RemoteVia | null | undefined, RemoteVia | null>;
}

/** Addresses (as hashes) whose comments are held: added when a moderator marks a comment as spam. */
export interface CommentSpamAddressesTable {
  ip_hash: string;
  created_at: Timestamp;
}

/** A reader's address for reply emails (migration 0028): an HMAC for matching, sealed (AES-GCM) for sending, never in clear. */
export interface CommentReplyAddressesTable {
  comment_id: string;
  email_hash: string;
  email_sealed: string;
  created_at: string;
}

/** Addresses (as HMACs) that unsubscribed from reply emails: none is sent to them again. */
export interface CommentReplyOptoutsTable {
  email_hash: string;
  created_at: string;
}

/** A reply whose parent's reader was emailed (once per reply), with that address's HMAC for the daily cap. */
export interface CommentReplyNoticesTable {
  reply_id: string;
  email_hash: string;
  created_at: string;
}

/** The day (in the site's time zone) whose comment digest a server claimed, and the time it covers up to. */
export interface CommentEmailDigestsTable {
  day: string;
  covered_until: string;
}

/** Which way a Webmention job goes: a mention received to verify, or one of ours to send. */
export type WebmentionDirection = "receive" | "send";

/** The Webmention queue (migration 0029, server/webmention). */
export interface WebmentionJobsTable {
  id: Generated<number>;
  direction: WebmentionDirection;
  source: string;
  target: string;
  state: "queued" | "claimed" | "done" | "failed";
  generation: ColumnType<number, number | undefined, number>;
  linked: ColumnType<number, number | undefined, number>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** A verified mention of a post by another page (migration 0029). */
export interface WebmentionsTable {
  id: string;
  post_id: string;
  source: string;
  kind: MentionKind;
  author_name: string;
  author_url: string;
  /** The comment a reply became (the comments capability's); null for the other kinds. */
  comment_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Small site-wide settings, one JSON value per key, each validated by its own schema on read. */
export interface SettingsTable {
  key: string;
  value: string;
}

export type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;

export interface AdminsTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: Timestamp;
  display_name: string;
  /** "owner" (exactly one, enforced by a unique partial index) or "editor". */
  role: string;
  /** Base32; set while enrolling, kept once confirmed (docs/decisions/0006-accounts-and-two-factor.md). */
  totp_secret: string | null;
  /** Null until the first code confirms enrolment: only then does sign-in ask for a code. */
  totp_enabled_at: NullableTimestamp;
  /** The last time step a code was accepted for, so no code works twice. */
  totp_last_step: number | null;
  /** The author page's address, /author/{slug} (migration 0027): unique, made from the display name. */
  slug: ColumnType<string, string, string>;
  /** Shown under the author's posts and on their page; plain text. */
  bio: ColumnType<string, string | undefined, string>;
  /** The hash of the author's square picture in the media store (server/media/site-images.ts); empty: none. */
  avatar: ColumnType<string, string | undefined, string>;
  /** "markdown" or "visual" (migration 0041): the body's view the writer last chose. */
  writing_view: ColumnType<string, string | undefined, string>;
}

export interface InvitationsTable {
  id: string;
  /** SHA-256 of the link's token, like setup tokens. */
  token_hash: string;
  email: string;
  role: string;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface RecoveryCodesTable {
  admin_id: string;
  code_hash: string;
}

/**
 * The mail server set up on Settings → Email (migration 0033): one row, `key` 'smtp', its
 * `value` the settings' JSON with the password sealed under the server's secret. Kept apart from
 * `settings`, which an export carries whole, so the sealed password never leaves the blog.
 */
export interface EmailServerTable {
  key: string;
  value: string;
}

export interface SiteSettingsTable {
  id: number;
  /** The settings as JSON, validated by domain/site-settings.ts on the way in and out. */
  value: string;
  version: number;
  updated_at: Timestamp;
}

export interface AuditLogTable {
  id: string;
  created_at: Timestamp;
  actor_id: string | null;
  /** Who it was as shown at the time (an account's name, or the email a failed sign-in gave). */
  actor_label: string;
  action: string;
  detail: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token, so a leaked database holds no usable session. */
  id_hash: string;
  admin_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  user_agent: Generated<string>;
}

export interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: Generated<number>;
  blocked_until: NullableTimestamp;
}

/** A writing app's or headless site's key (migration 0030, docs/decisions/0027-app-keys.md). */
/** An IndieAuth authorization code (migration 0036): kept by its SHA-256, single-use, minutes long. */
export interface IndieAuthCodesTable {
  code_hash: string;
  /** The account that consented, whom the token will act as. */
  user_id: string;
  client_id: string;
  redirect_uri: string;
  /** Space-separated scopes the owner granted. */
  scope: string;
  /** The PKCE S256 challenge: base64url SHA-256 of the client's verifier. */
  code_challenge: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** An IndieAuth access token (migration 0036), kept by its SHA-256. */
export interface IndieAuthTokensTable {
  id: string;
  token_hash: string;
  user_id: string;
  client_id: string;
  scope: string;
  created_at: string;
  revoked_at: string | null;
}

export interface AppKeysTable {
  /** The Ghost Admin API key's id: 24 hex digits, the JWT's `kid`. */
  id: string;
  name: string;
  /** The account the key acts as. */
  user_id: string;
  /** 'drafts' or 'publish'. */
  scope: string;
  /** The Admin API secret, AES-256-GCM under a key derived from the server's secret. */
  admin_secret: string;
  /** SHA-256 of the Content API key. */
  content_key_hash: string;
  /** SHA-256 of the bearer token. */
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** The network part only: an IPv4 /24 or an IPv6 /48. */
  last_used_address: string | null;
}

/** Another page's Open Graph data, as a bookmark card shows it (migration 0040). */
export interface LinkPreviewsTable {
  url: string;
  title: string | null;
  description: Generated<string>;
  site_name: Generated<string>;
  failure: string | null;
  fetched_at: string;
}

/** A URL told of one event of the blog's life (migration 0038). */
export interface WebhooksTable {
  id: string;
  event: WebhookEvent;
  url: string;
  /** The signing secret, AES-256-GCM under a key derived from the server's secret. */
  secret: string;
  created_at: string;
}

/** One event to send to one webhook: a durable queue row (server/kernel/durable-queue.ts, migration 0038). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: string;
  event: WebhookEvent;
  /** The JSON body, written with the change it tells of. */
  body: string;
  state: "queued" | "claimed" | "delivered" | "failed";
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  response_status: number | null;
  /** The first 200 characters of the receiver's answer, no more. */
  response_excerpt: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface PasswordResetsTable {
  /** SHA-256 of the reset link's token: the database never holds a usable link. */
  token_hash: string;
  admin_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface SetupTokensTable {
  /** SHA-256 of the link's token: the database never holds a usable link. */
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** One row per imported post or comment: its origin, and the row it became here. */
export interface ImportSourcesTable {
  source_key: string;
  target_id: string;
}

export interface MediaTable {
  /** SHA-256 of the uploaded bytes, hex: the same file uploaded twice is one row. */
  hash: string;
  original_name: string;
  mime: string;
  width: number;
  height: number;
  /** Size of the upload. */
  bytes: number;
  created_at: Timestamp;
  uploaded_by: string;
  /** Since when no post uses the image; null while one does. */
  unused_since: ColumnType<Date | string | null, string | null, string | null>;
}

export interface MediaVariantsTable {
  hash: string;
  /** 0 for the original. */
  width: number;
  format: string;
  height: number;
  size: number;
  /** BLOB in SQLite, bytea in PostgreSQL; both drivers hand back a Buffer. */
  bytes: Uint8Array;
}

export interface MediaUsesTable {
  hash: string;
  post_id: string;
}

/** The writer's categories (migration 0026); `name` is what posts.category holds. */
export interface CategoriesTable {
  id: string;
  name: string;
  slug: string;
  description: string;
  position: number;
}

/** Addresses a category answered at before (migration 0026): each answers 301 to the category's own. */
export interface CategoryFormerSlugsTable {
  slug: string;
  category_id: string;
}

/** Published posts per category, scheduled ones included; kept by triggers (migration 0013). */
export interface PublishedPostCountsTable {
  category: string;
  posts: number;
}

/** How many published posts carry a tag, by key, scheduled ones included (migration 0037). */
export interface TagPostCountsTable {
  tag_key: string;
  posts: number;
}

/** How many published posts a byline signs, scheduled ones included (migration 0037). */
export interface AuthorPostCountsTable {
  author: string;
  posts: number;
}

/** A newsletter subscriber (migration 0015). Times are ISO text on both databases. */
export interface SubscribersTable {
  id: string;
  /** As typed, trimmed, domain part lower-cased; unique without case (migration 0022). */
  email: string;
  state: SubscriberState;
  source: SubscriberSource;
  created_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  /** Permanent SMTP failures so far; the third marks the subscriber 'bounced'. */
  bounces: ColumnType<number, number | undefined, number>;
  /** A subscription asked for a confirmation email the outbox's tick has not queued yet. */
  confirmation_requested_at: string | null;
}

/** The latest subscriber CSV import and how far it got (migration 0024), one row: `id` is 'latest'. */
export interface SubscriberImportsTable {
  id: string;
  /** The import writing the row; a server that lost it to a newer one writes nothing more. */
  run_id: string;
  state: "running" | "finished" | "stopped" | "failed";
  /** What the new addresses become. */
  new_state: "active" | "pending";
  started_by: string;
  started_at: string;
  /** Moves with every batch: a row still 'running' whose heartbeat is old lost its server. */
  heartbeat_at: string;
  finished_at: string | null;
  rows_read: ColumnType<number, number | undefined, number>;
  added: ColumnType<number, number | undefined, number>;
  already_listed: ColumnType<number, number | undefined, number>;
  not_subscribed: ColumnType<number, number | undefined, number>;
  invalid: ColumnType<number, number | undefined, number>;
  /** JSON: the invalid lines the report names, written when the import ends. */
  invalid_lines: ColumnType<string, string | undefined, string>;
  /** Why a failed import failed, in words for the writer. */
  failure: string | null;
}

/** One send: a post's (once in its life, by the unique `post_id`) or a single email. */
export interface EmailSendsTable {
  id: string;
  kind: "post" | "single";
  post_id: string | null;
  state: "sending" | "done" | "cancelled";
  /** Composed once when the send is made; `{{unsubscribe_url}}` is filled per recipient at send time. */
  subject: string;
  html: string;
  text: string;
  total: ColumnType<number, number | undefined, number>;
  sent: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  created_at: string;
  finished_at: string | null;
}

export type DeliveryState = "queued" | "claimed" | "sent" | "failed" | "cancelled";

/** The outbox: one row per recipient of a send, claimed by a worker with a lease. */
export interface EmailDeliveriesTable {
  /** Autoincrement (SQLite) or bigserial (PostgreSQL): the order of claim. */
  id: Generated<number>;
  send_id: string;
  subscriber_id: string | null;
  to_address: string;
  state: DeliveryState;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  /** A claim not finished by then is claimed again: how a send resumes after a crash. */
  claimed_until: string | null;
  last_error: string | null;
  sent_at: string | null;
  /** A delivery to the reader who left an address on this comment (migration 0028); its address is read, and unsealed, at send time. */
  comment_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An account following the blog from the fediverse (migration 0017), keyed by its actor URL. */
export interface FediverseFollowersTable {
  id: string;
  actor_url: string;
  /** "@alice@example.social" */
  handle: string;
  /** The host of its actor URL, as the admin list shows it. */
  server: string;
  inbox_url: string;
  shared_inbox_url: string | null;
  /** The Follow's id, which the Accept or Reject names. */
  follow_activity_id: string | null;
  state: "accepted" | "pending";
  created_at: string;
}

/** A like or a boost of a post, one per (post, kind, actor); `activity_id` is what an Undo names. */
export interface FediverseReactionsTable {
  id: string;
  post_id: string;
  kind: "like" | "announce";
  actor_url: string;
  activity_id: string;
  created_at: string;
}

/** Fedify's key–value store (migration 0018): the key array as JSON, the value as JSON. */
export interface FedifyKvTable {
  key: string;
  value: string;
  expires_at: string | null;
}

/** Fedify's message queue (migration 0018): a message is held by one worker until `claimed_until`. */
export interface FedifyMessagesTable {
  id: Generated<number>;
  payload: string;
  ordering_key: string | null;
  available_at: string;
  claimed_until: string | null;
  created_at: string;
}

/** What the fediverse was last sent about a post: its Create (or Update) at `sent_version`, or its Delete. */
export interface FediversePostsTable {
  post_id: string;
  state: "created" | "deleted";
  sent_version: Timestamp;
  /** 1 once the post is deleted (a trigger, migration 0018). */
  post_deleted: ColumnType<number, number | undefined, number>;
  /** The post's updated_at when its last Create was sent, which names it (migration 0023); null: none named so. */
  created_version: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

/**
 * One counted page view (migration 0019, docs/decisions/0016-analytics.md); kept `retentionDays`.
 * `day` ('YYYY-MM-DD') and `hour` ('YYYY-MM-DDTHH') are the site's time zone when it was counted.
 */
export interface AnalyticsEventsTable {
  /** Autoincrement (SQLite) or bigserial (PostgreSQL): the rollup's watermark. */
  id: Generated<number>;
  occurred_at: string;
  day: string;
  hour: string;
  kind: "view" | "not_found";
  path: string;
  /** 32 hex characters: SHA-256 of the day's salt, the host, the address and the user agent. */
  visitor_key: string;
  /** A named source ("Google") or the referrer's host; null: none (direct). */
  source: string | null;
  referrer_host: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  browser: string;
  os: string;
  device: "desktop" | "mobile" | "tablet";
  screen: "small" | "medium" | "large";
  country: string | null;
}

/** Views and visitors a day per dimension and value ('' for the total), kept for good. */
export interface AnalyticsDailyTable {
  day: string;
  dimension: string;
  value: string;
  views: number;
  visitors: number;
}

/** analytics_daily summed per month ('YYYY-MM'); visitors are the sum of each day's, as on the screen. */
export interface AnalyticsMonthlyTable {
  month: string;
  dimension: string;
  value: string;
  views: number;
  visitors: number;
}

export interface AnalyticsHourlyTable {
  hour: string;
  views: number;
  visitors: number;
}

/** The rollups hold every event with `id <= through_id`; `seen_id` is the next pass's bound. */
export interface AnalyticsRollupStateTable {
  name: string;
  through_id: number;
  seen_id: number;
  seen_at: string;
}

/** Today's salt only: a day's row is deleted once the day is over. */
export interface AnalyticsSaltsTable {
  day: string;
  salt: string;
}

export interface AnalyticsFeedFetchesTable {
  day: string;
  fetcher: string;
  fetcher_key: string;
  subscribers: number | null;
}

export interface AnalyticsFeedDailyTable {
  day: string;
  fetcher: string;
  fetchers: number;
  subscribers: number;
}

/** The actor's key pairs as JWK (migration 0018), never exported. */
export interface FediverseKeysTable {
  actor: string;
  key_pairs: string;
}

/** A page (migration 0020): like a post's columns, without category, tags, comments or email. */
export interface PagesTable {
  id: string;
  slug: string;
  title: string;
  content: string;
  format: string;
  content_html: string;
  description: ColumnType<string, string | undefined, string>;
  /** 0 or 1. */
  published: number;
  /** 0 or 1: "Last updated" under the title. */
  show_last_updated: ColumnType<number, number | undefined, number>;
  /** 'about', 'privacy' or 'terms' for the pages the site starts with; null for the writer's own. */
  built_in: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the writer last saved it; null: a built-in page never saved. */
  edited_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PageRevisionsTable extends Omit<PostRevisionsTable, "post_id"> {
  page_id: string;
}

export interface PagePreviewTokensTable extends Omit<PostPreviewTokensTable, "post_id"> {
  page_id: string;
}

export interface PageMediaUsesTable {
  hash: string;
  page_id: string;
}

export interface Database {
  posts: PostsTable;
  published_post_counts: PublishedPostCountsTable;
  tag_post_counts: TagPostCountsTable;
  author_post_counts: AuthorPostCountsTable;
  categories: CategoriesTable;
  category_former_slugs: CategoryFormerSlugsTable;
  post_tags: PostTagsTable;
  post_search: PostSearchTable;
  post_slug_history: PostSlugHistoryTable;
  comments: CommentsTable;
  admins: AdminsTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  setup_tokens: SetupTokensTable;
  post_revisions: PostRevisionsTable;
  post_preview_tokens: PostPreviewTokensTable;
  comment_spam_addresses: CommentSpamAddressesTable;
  comment_reply_addresses: CommentReplyAddressesTable;
  comment_reply_optouts: CommentReplyOptoutsTable;
  comment_reply_notices: CommentReplyNoticesTable;
  comment_email_digests: CommentEmailDigestsTable;
  settings: SettingsTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  recovery_codes: RecoveryCodesTable;
  site_settings: SiteSettingsTable;
  email_server: EmailServerTable;
  audit_log: AuditLogTable;
  import_sources: ImportSourcesTable;
  media: MediaTable;
  media_variants: MediaVariantsTable;
  media_uses: MediaUsesTable;
  subscribers: SubscribersTable;
  subscriber_imports: SubscriberImportsTable;
  email_sends: EmailSendsTable;
  email_deliveries: EmailDeliveriesTable;
  analytics_events: AnalyticsEventsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_monthly: AnalyticsMonthlyTable;
  analytics_hourly: AnalyticsHourlyTable;
  analytics_rollup_state: AnalyticsRollupStateTable;
  analytics_salts: AnalyticsSaltsTable;
  analytics_feed_fetches: AnalyticsFeedFetchesTable;
  analytics_feed_daily: AnalyticsFeedDailyTable;
  fediverse_followers: FediverseFollowersTable;
  webmention_jobs: WebmentionJobsTable;
  webmentions: WebmentionsTable;
  fediverse_reactions: FediverseReactionsTable;
  fedify_kv: FedifyKvTable;
  fedify_messages: FedifyMessagesTable;
  fediverse_posts: FediversePostsTable;
  fediverse_keys: FediverseKeysTable;
  pages: PagesTable;
  page_revisions: PageRevisionsTable;
  page_preview_tokens: PagePreviewTokensTable;
  page_media_uses: PageMediaUsesTable;
  app_keys: AppKeysTable;
  indieauth_codes: IndieAuthCodesTable;
  indieauth_tokens: IndieAuthTokensTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  link_previews: LinkPreviewsTable;
}
