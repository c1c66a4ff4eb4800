// The one shape Ghost and WordPress exports are read into (import-ghost.ts, import-wordpress.ts),
// and the readers' shared helpers; what a post means for the blog is decided in import-foreign.ts.
import type { CommentStatus } from "#domain/comment.ts";
import { cleanJsonStrings } from "#domain/forms.ts";
import type { PostDraft } from "#domain/post.ts";

export interface ForeignComment {
  sourceKey: string;
  author: string;
  /** Plain text: comments here are text, never HTML. */
  content: string;
  createdAt: string | undefined;
  status: CommentStatus;
  /** The source key of the comment it answers, when the source threads comments (WordPress). */
  parentKey?: string;
}

export interface ForeignPost {
  sourceKey: string;
  /** How the report names it: the title, or the source id when there is none. */
  label: string;
  title: string;
  /** The address name the post had there; kept when it is free here. */
  slug: string;
  html: string;
  excerpt: string;
  author: string;
  coverImage: string;
  /** Source category and tag names, in the source's order, for the category map. */
  terms: string[];
  /** The source's own categories (WordPress's; Ghost has only tags): one the blog lacks becomes a new category. */
  categories: string[];
  tags: string[];
  /** Public, or (with `publishAt`) public from that time; otherwise a draft. */
  published: boolean;
  publishAt: string | undefined;
  commentsClosed: boolean;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  comments: ForeignComment[];
  /** What the report says about this post if it is created (why it became a draft, what stays as text). */
  notes: string[];
  /** Fields the source has as this blog keeps them, checked by the reader: they go into the post as they are. */
  kept?: Partial<PostDraft>;
}

/** A source page imported as a page (`--pages pages`): no category, tags, author, cover or comments. */
export interface ForeignPage {
  sourceKey: string;
  label: string;
  title: string;
  slug: string;
  html: string;
  /** The source's meta description, else its excerpt; blank when it has neither. */
  description: string;
  /** Public only when the source page was published for everyone; a page has no publishing time. */
  published: boolean;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  notes: string[];
  /** Comments the source page had, which a page here has no place for. */
  comments: number;
}

export interface ForeignExport {
  format: "ghost" | "wordpress";
  posts: ForeignPost[];
  pages: ForeignPage[];
  skipped: { item: string; reason: string }[];
  warnings: string[];
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return "";
}

/** A date as ISO text, or undefined when the source has none (or WordPress's 0000-00-00). */
export function isoDate(value: unknown, assumeUtc = false): string | undefined {
  const raw = text(value).trim();
  if (!raw || raw.startsWith("0000-00-00")) return undefined;
  const date = new Date(
    assumeUtc && /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(raw) ? `${raw.replace(" ", "T")}Z` : raw,
  );
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function rows(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** Why a page of either source is left out when the writer asked for that. */
export const PAGE_SKIPPED_REASON = "a page (left out as asked: --pages skip, or “Leave pages out” on the Tools page)";

/**
 * How a post's status and audience there become its state here: private writing stays a
 * draft, a scheduled post stays scheduled at its time (published, with a publishing time, as
 * the editor schedules), and the report says which posts changed and why.
 */
export function foreignState(
  label: string,
  state: { live: boolean; scheduledAt: string | undefined; hiddenBecause: string | undefined },
): Pick<ForeignPost, "published" | "publishAt" | "notes"> {
  if (state.hiddenBecause) {
    return { published: false, publishAt: undefined, notes: [`${label} ${state.hiddenBecause}: imported as a draft`] };
  }
  if (state.scheduledAt !== undefined) return { published: true, publishAt: state.scheduledAt, notes: [] };
  return { published: state.live, publishAt: undefined, notes: [] };
}

/**
 * The same for a page, which has no publishing time: only a page published for everyone is
 * public here, and a scheduled one arrives as a draft, said so.
 */
export function foreignPageState(
  label: string,
  source: string,
  state: { live: boolean; scheduledAt: string | undefined; hiddenBecause: string | undefined },
): Pick<ForeignPage, "published" | "notes"> {
  if (state.scheduledAt !== undefined && !state.hiddenBecause) {
    return {
      published: false,
      notes: [`${label} was scheduled in ${source}, and a page has no publishing time: imported as a draft`],
    };
  }
  const { published, notes } = foreignState(label, { ...state, scheduledAt: undefined });
  return { published, notes };
}

/**
 * An export's JSON with every string cleaned as a form field is (control characters dropped,
 * NUL above all, which PostgreSQL refuses wherever it is stored or looked up).
 */
export function parseExportJson(text: string): unknown {
  return JSON.parse(text, cleanJsonStrings);
}

/**
 * The top-level comment each of a post's comments belongs under, by source key: threads are
 * one level deep here, so a reply to a reply joins its thread's first comment. A reply whose
 * parent is not among them (in the trash, a pingback) starts a thread of its own; a loop of
 * parents, which no source should send, ends where it comes round.
 */
export function threadRootKeys(comments: readonly ForeignComment[]): Map<string, string> {
  const parents = new Map(comments.map((comment) => [comment.sourceKey, comment.parentKey]));
  const roots = new Map<string, string>();
  for (const comment of comments) {
    const seen = new Set([comment.sourceKey]);
    let root: string | undefined;
    let parent = comment.parentKey;
    while (parent !== undefined && parents.has(parent) && !seen.has(parent)) {
      seen.add(parent);
      root = parent;
      parent = parents.get(parent);
    }
    if (root !== undefined) roots.set(comment.sourceKey, root);
  }
  return roots;
}
