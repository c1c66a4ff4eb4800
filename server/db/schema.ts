import type { ColumnType, Generated } from "kysely";

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
  /** 0 or 1 in both databases, so one query layer needs no boolean conversion. */
  published: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PostTagsTable {
  post_id: string;
  /** As the author typed it. */
  tag: string;
  /** Lower-cased, for "posts with tag X" lookups. */
  tag_key: string;
  position: number;
}

/** PostgreSQL: a table with a trigram index. SQLite: an FTS5 table with the trigram tokenizer. */
export interface PostSearchTable {
  post_id: string;
  search_text: string;
}

export interface CommentsTable {
  id: string;
  post_id: string;
  author: string;
  content: string;
  created_at: Timestamp;
}

export interface AdminsTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token, so a leaked database holds no usable session. */
  id_hash: string;
  admin_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: Generated<number>;
  blocked_until: ColumnType<Date | string | null, string | null, string | null>;
}

export interface SetupTokensTable {
  /** SHA-256 of the link's token: the database never holds a usable link. */
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface Database {
  posts: PostsTable;
  post_tags: PostTagsTable;
  post_search: PostSearchTable;
  comments: CommentsTable;
  admins: AdminsTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  setup_tokens: SetupTokensTable;
}
