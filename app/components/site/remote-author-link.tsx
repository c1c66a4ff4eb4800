import type { RemoteAuthor } from "#domain/comment.ts";

/**
 * A fediverse reply's author: their handle, linked to their profile. The address came from
 * another server, so only a web address becomes a link, and it carries no referrer and no
 * endorsement (`nofollow ugc`).
 */
export function RemoteAuthorLink({ author, className = "" }: { author: RemoteAuthor; className?: string }) {
  if (!/^https?:\/\//i.test(author.url)) return <span className={className}>{author.handle}</span>;
  return (
    <a href={author.url} rel="nofollow ugc noopener noreferrer" className={`underline ${className}`}>
      {author.handle}
    </a>
  );
}
