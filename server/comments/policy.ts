import type { CommentSettings } from "#domain/comment-settings.ts";

/** WordPress's defaults, the bar this blog meets (docs/decisions/0008-comment-moderation.md). */
export const COMMENT_POLICY = {
  /** More links than this and a comment waits for the writer. */
  maxLinks: 2,
  /** A second comment from one address sooner than this is refused. */
  floodWindowMs: 15 * 1000,
  /** The same text on the same post from the same address within this is refused. */
  duplicateWindowMs: 24 * 60 * 60 * 1000,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CommentCandidate {
  author: string;
  content: string;
  /** The hidden field people leave empty and form-filling bots do not. */
  honeypot: string;
}

/** What the service looked up before deciding; the decision itself reads nothing else. */
export interface CommentFacts {
  post: { createdAt: string; commentsClosed: boolean };
  settings: CommentSettings;
  now: Date;
  /** Null when the comment comes without a client address (CLI, tests): no per-address rules apply. */
  address: {
    lastCommentAt: string | undefined;
    postedSameTextRecently: boolean;
    onSpamList: boolean;
  } | null;
  floodWindowMs: number;
}

export type CommentDecision =
  | { outcome: "approve" }
  | { outcome: "hold"; reason: string }
  | { outcome: "refuse"; refusal: "closed" | "honeypot" | "duplicate" }
  | { outcome: "refuse"; refusal: "flood"; retryAfterSeconds: number };

const LINK_PATTERN = /\b(?:https?:\/\/|www\.)/gi;

export function countLinks(text: string): number {
  return text.match(LINK_PATTERN)?.length ?? 0;
}

/** Blocklist lines, lower-cased; blank lines are ignored. */
export function blocklistEntries(blocklist: string): string[] {
  return blocklist
    .split("\n")
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== "");
}

export function areCommentsClosed(
  post: { createdAt: string; commentsClosed: boolean },
  settings: CommentSettings,
  now: Date,
): boolean {
  if (post.commentsClosed) return true;
  if (settings.closeAfterDays === null) return false;
  return now.getTime() - Date.parse(post.createdAt) >= settings.closeAfterDays * DAY_MS;
}

/**
 * Publish, hold or refuse one comment. Refusals come first, so nothing refused is stored;
 * then the reasons to hold, the first that applies being the one the moderator sees.
 */
export function decideComment(candidate: CommentCandidate, facts: CommentFacts): CommentDecision {
  if (areCommentsClosed(facts.post, facts.settings, facts.now)) return { outcome: "refuse", refusal: "closed" };
  if (candidate.honeypot.trim() !== "") return { outcome: "refuse", refusal: "honeypot" };

  const { address } = facts;
  if (address?.postedSameTextRecently) return { outcome: "refuse", refusal: "duplicate" };
  if (address?.lastCommentAt !== undefined) {
    const waitMs = Date.parse(address.lastCommentAt) + facts.floodWindowMs - facts.now.getTime();
    if (waitMs > 0) return { outcome: "refuse", refusal: "flood", retryAfterSeconds: Math.ceil(waitMs / 1000) };
  }

  if (address?.onSpamList) return { outcome: "hold", reason: "Address marked as spam before" };
  if (facts.settings.holdAll) return { outcome: "hold", reason: "Every comment is held" };
  const links = countLinks(`${candidate.author}\n${candidate.content}`);
  if (links > COMMENT_POLICY.maxLinks) return { outcome: "hold", reason: `${links} links` };
  const haystack = `${candidate.author}\n${candidate.content}`.toLowerCase();
  const blocked = blocklistEntries(facts.settings.blocklist).find((entry) => haystack.includes(entry));
  if (blocked !== undefined) return { outcome: "hold", reason: `Blocklist: ${blocked}` };
  return { outcome: "approve" };
}
