import { Link } from "react-router";
import { pluralise } from "~/lib/format";
import type { MentionCounts, MentionKind } from "#domain/webmention.ts";

export interface MentionItem {
  source: string;
  kind: MentionKind;
  authorName: string;
  authorUrl: string;
}

const KIND_LABEL: Record<MentionKind, string> = {
  reply: "replied",
  like: "liked it",
  repost: "reposted it",
  bookmark: "bookmarked it",
  mention: "mentioned it",
};

/** A page another site runs: the address is theirs, so it carries no referrer and no endorsement. */
function SourceLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a
      href={href}
      rel="nofollow ugc noopener noreferrer"
      className="text-indigo-700 hover:underline dark:text-indigo-300"
    >
      {children}
    </a>
  );
}

/**
 * On a post's editor, under the fediverse's line: what other sites said of it by Webmention (likes,
 * reposts, bookmarks, mentions, and replies, which wait among the comments), and the newest of them.
 */
export function PostMentionsLine({
  postId,
  counts,
  mentions,
}: {
  postId: string;
  counts: MentionCounts;
  mentions: readonly MentionItem[];
}) {
  const replies = pluralise(counts.reply, "reply", "replies");
  return (
    <div className="mb-6 text-sm text-slate-700 dark:text-slate-300">
      <p>
        <span className="font-medium">On the web (Webmention):</span> {pluralise(counts.like, "like")},{" "}
        {pluralise(counts.repost, "repost")}, {pluralise(counts.bookmark, "bookmark")},{" "}
        {pluralise(counts.mention, "mention")},{" "}
        {counts.reply > 0 ? (
          <Link
            to={`/admin/comments?${new URLSearchParams({ post: postId })}`}
            className="text-indigo-700 hover:underline dark:text-indigo-300"
          >
            {replies}
          </Link>
        ) : (
          replies
        )}
        .
      </p>
      {mentions.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {mentions.map((mention) => (
            <li key={mention.source} className="break-all">
              <SourceLink href={mention.authorUrl}>{mention.authorName}</SourceLink> {KIND_LABEL[mention.kind]}:{" "}
              <SourceLink href={mention.source}>{mention.source}</SourceLink>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
