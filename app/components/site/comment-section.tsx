import { useSite } from "~/lib/use-site";
import { formatDate, pluralise } from "~/lib/format";
import { type Comment, COMMENTS_CLOSED_MESSAGE, type RemoteAuthor } from "#domain/comment.ts";
import type { Page } from "#domain/pagination.ts";
import { CommentForm, type CommentFormResult } from "./comment-form";
import { Pagination } from "./pagination";
import { RemoteAuthorLink } from "./remote-author-link";

interface CommentSectionProps {
  /** One page of approved comments (the only ones counted), newest first; `total` counts them all. */
  comments: Page<Comment>;
  /** The visitor's own comments that wait for the writer; nobody else is sent them. */
  awaitingModeration: Comment[];
  open: boolean;
  /** The form asks for an address to tell of replies (email is on). */
  repliesByEmail?: boolean;
  /** The post's address: the form posts there. */
  action: string;
  result: CommentFormResult | undefined;
}

interface CommentItemProps {
  author: string;
  /** A reply from the fediverse: its author's handle, linked to their profile. */
  remoteAuthor?: RemoteAuthor;
  content: string;
  /** When it was posted, or that it awaits moderation. */
  status: React.ReactNode;
}

function CommentItem({ author, remoteAuthor, content, status }: CommentItemProps) {
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="font-semibold text-slate-900 dark:text-white">
          {author}
          {remoteAuthor ? (
            <>
              {" "}
              <RemoteAuthorLink
                author={remoteAuthor}
                className="text-sm font-normal break-all text-slate-600 dark:text-slate-400"
              />
            </>
          ) : null}
        </p>
        <span className="text-sm text-slate-600 dark:text-slate-400">{status}</span>
      </div>
      <p className="mt-2 break-words whitespace-pre-line text-slate-800 dark:text-slate-200">{content}</p>
    </>
  );
}

export function CommentSection({
  comments: page,
  awaitingModeration,
  open,
  repliesByEmail = false,
  action,
  result,
}: CommentSectionProps) {
  const { timeZone } = useSite();
  const awaitingIds = new Set(awaitingModeration.map((comment) => comment.id));
  const shown = [...awaitingModeration, ...page.items].toSorted(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id),
  );
  const itemStyles = "rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900";
  return (
    <section aria-labelledby="comments" className="space-y-8">
      <h2 id="comments" className="font-serif text-2xl font-bold text-slate-900 dark:text-white">
        {pluralise(page.total, "Comment")}
      </h2>
      {open ? (
        <div className="rounded-2xl bg-slate-50 p-5 sm:p-6 dark:bg-slate-900/60">
          <h3 className="mb-4 text-lg font-semibold text-slate-900 dark:text-white">Leave a comment</h3>
          {/* Keyed by the newest comment shown, so the form empties once its comment is saved, held or not. */}
          <CommentForm key={shown[0]?.id ?? "none"} action={action} result={result} repliesByEmail={repliesByEmail} />
        </div>
      ) : (
        <p className="rounded-2xl bg-slate-50 p-5 font-medium text-slate-800 sm:p-6 dark:bg-slate-900/60 dark:text-slate-200">
          {COMMENTS_CLOSED_MESSAGE}
        </p>
      )}
      {shown.length > 0 ? (
        <ol className="space-y-4" aria-label="Comments, newest first">
          {shown.map((comment) => (
            <li key={comment.id} id={`comment-${comment.id}`} className={`scroll-mt-24 ${itemStyles}`}>
              <CommentItem
                author={comment.author}
                remoteAuthor={comment.remoteAuthor}
                content={comment.content}
                status={
                  awaitingIds.has(comment.id) ? (
                    <em className="font-medium text-amber-800 not-italic dark:text-amber-300">
                      Your comment is awaiting moderation
                    </em>
                  ) : (
                    <time dateTime={comment.createdAt}>{formatDate(comment.createdAt, timeZone)}</time>
                  )
                }
              />
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-slate-700 dark:text-slate-300">No comments yet. Be the first to share your thoughts.</p>
      )}
      <Pagination
        page={page}
        label="Comments"
        previousText="Newer comments"
        nextText="Older comments"
        hash="#comments"
      />
    </section>
  );
}
