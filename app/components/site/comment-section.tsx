import { Link } from "react-router";
import { useSite } from "~/lib/use-site";
import { formatDate, pluralise } from "~/lib/format";
import { textLinkStyles } from "~/components/ui/styles";
import {
  type Comment,
  COMMENT_FORM_ANCHOR,
  type CommentThreadPage,
  COMMENTS_CLOSED_MESSAGE,
  REPLY_TO_FIELD,
} from "#domain/comment.ts";
import { AuthorBadge } from "./author-badge";
import { CommentForm, type CommentFormResult, type ReplyingTo } from "./comment-form";
import { Pagination } from "./pagination";
import { RemoteAuthorLink } from "./remote-author-link";

interface CommentSectionProps {
  /** One page of threads (what pages count), newest first; `commentCount` counts every comment shown. */
  comments: CommentThreadPage;
  /** The visitor's own comments and replies that wait for the writer; nobody else is sent them. */
  awaitingModeration: Comment[];
  open: boolean;
  /** The form asks for an address to tell of replies (email is on). */
  repliesByEmail?: boolean;
  /** The post's address: the form posts there. */
  postPath: string;
  /** The comment the address asks to answer (`?replyTo=`); ignored unless it is shown on this page. */
  replyTo: string | undefined;
  /** A signed-in writer of the blog: they comment under their own name. */
  writer: { name: string } | undefined;
  result: CommentFormResult | undefined;
}

/**
 * This page of the post's comments, with the comment form answering `replyTo`, at `hash`. The
 * form posts there without a fragment: a page whose address names a fragment skips autofocus,
 * and a refused comment is brought into view by focusing its form (comment-form.tsx).
 */
function commentsAddress(postPath: string, page: number, replyTo: string | undefined, hash?: string): string {
  const params = new URLSearchParams();
  if (page > 1) params.set("page", String(page));
  if (replyTo !== undefined) params.set(REPLY_TO_FIELD, replyTo);
  const query = params.toString();
  return `${postPath}${query ? `?${query}` : ""}${hash ? `#${hash}` : ""}`;
}

const byTime = (direction: 1 | -1) => (a: Comment, b: Comment) =>
  direction * a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

interface CommentItemProps {
  comment: Comment;
  /** The visitor's own held comment: said so instead of its date, and not answerable yet. */
  awaiting: boolean;
  /** Where its "Reply" link opens the form; none while comments are closed. */
  replyHref: string | undefined;
  /** The comment a reply answers, named for other sites (microformats2 u-in-reply-to). */
  inReplyTo?: string;
}

/** One comment as an h-cite (microformats2) inside its `u-comment` item: author h-card, text, date, address. */
function CommentItem({ comment, awaiting, replyHref, inReplyTo }: CommentItemProps) {
  const { timeZone } = useSite();
  return (
    <>
      <data className="u-url" value={`#comment-${comment.id}`} />
      {inReplyTo ? <data className="u-in-reply-to" value={`#comment-${inReplyTo}`} /> : null}
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="p-author h-card font-semibold text-slate-900 dark:text-white">
          <span className="p-name">{comment.author}</span>
          {comment.byAuthor ? <AuthorBadge /> : null}
          {comment.remoteAuthor ? (
            <>
              {" "}
              <RemoteAuthorLink
                author={comment.remoteAuthor}
                className="text-sm font-normal break-all text-slate-600 dark:text-slate-400"
              />
            </>
          ) : null}
        </p>
        <span className="text-sm text-slate-600 dark:text-slate-400">
          {awaiting ? (
            <em className="font-medium text-amber-800 not-italic dark:text-amber-300">
              Your comment is awaiting moderation
            </em>
          ) : (
            <time className="dt-published" dateTime={comment.createdAt}>
              {formatDate(comment.createdAt, timeZone)}
            </time>
          )}
        </span>
      </div>
      <p className="p-content mt-2 break-words whitespace-pre-line text-slate-800 dark:text-slate-200">
        {comment.content}
      </p>
      {awaiting || replyHref === undefined ? null : (
        <div className="mt-2 text-sm">
          <Link to={replyHref} className={textLinkStyles}>
            Reply<span className="sr-only"> to {comment.author}</span>
          </Link>
        </div>
      )}
    </>
  );
}

export function CommentSection({
  comments: page,
  awaitingModeration,
  open,
  repliesByEmail = false,
  postPath,
  replyTo,
  writer,
  result,
}: CommentSectionProps) {
  const awaitingIds = new Set(awaitingModeration.map((comment) => comment.id));
  const heldReplies = awaitingModeration.filter((comment) => comment.parentId !== undefined);
  const shown = [
    ...awaitingModeration
      .filter((comment) => comment.parentId === undefined)
      .map((comment) => ({ ...comment, replies: [] })),
    ...page.items,
  ]
    .toSorted(byTime(-1))
    .map((thread) => ({
      ...thread,
      replies: [...thread.replies, ...heldReplies.filter((reply) => reply.parentId === thread.id)].toSorted(byTime(1)),
    }));
  const answerable = page.items.flatMap((thread) => [thread, ...thread.replies]);
  const answered = answerable.find((comment) => comment.id === replyTo);
  const replyingTo: ReplyingTo | undefined = answered && {
    id: answered.id,
    author: answered.author,
    cancelHref: commentsAddress(postPath, page.page, undefined, `comment-${answered.id}`),
  };
  const newest = [...shown, ...heldReplies].toSorted(byTime(-1))[0];
  const replyHref = (comment: Comment) =>
    open ? commentsAddress(postPath, page.page, comment.id, COMMENT_FORM_ANCHOR) : undefined;
  const itemStyles = "rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900";
  return (
    <section aria-labelledby="comments" className="space-y-8">
      <h2 id="comments" className="font-serif text-2xl font-bold text-slate-900 dark:text-white">
        {pluralise(page.commentCount, "Comment")}
      </h2>
      {open ? (
        <div id={COMMENT_FORM_ANCHOR} className="scroll-mt-24 rounded-2xl bg-slate-50 p-5 sm:p-6 dark:bg-slate-900/60">
          <h3 className="mb-4 text-lg font-semibold text-slate-900 dark:text-white">
            {replyingTo ? "Leave a reply" : "Leave a comment"}
          </h3>
          {/* Keyed by the newest comment shown, so the form empties once its comment is saved, held or not. */}
          <CommentForm
            key={`${newest?.id ?? "none"} ${replyingTo?.id ?? ""}`}
            action={commentsAddress(postPath, page.page, replyingTo?.id)}
            result={result}
            replyingTo={replyingTo}
            writer={writer}
            repliesByEmail={repliesByEmail}
          />
        </div>
      ) : (
        <p className="rounded-2xl bg-slate-50 p-5 font-medium text-slate-800 sm:p-6 dark:bg-slate-900/60 dark:text-slate-200">
          {COMMENTS_CLOSED_MESSAGE}
        </p>
      )}
      {shown.length > 0 ? (
        <ol className="space-y-4" aria-label="Comments, newest first">
          {shown.map((thread) => (
            <li key={thread.id} id={`comment-${thread.id}`} className={`u-comment h-cite scroll-mt-24 ${itemStyles}`}>
              <CommentItem comment={thread} awaiting={awaitingIds.has(thread.id)} replyHref={replyHref(thread)} />
              {thread.replies.length > 0 ? (
                <ol
                  className="mt-4 space-y-3 border-l-2 border-slate-200 pl-4 dark:border-slate-700"
                  aria-label={`Replies to ${thread.author}`}
                >
                  {thread.replies.map((reply) => (
                    <li key={reply.id} id={`comment-${reply.id}`} className="u-comment h-cite scroll-mt-24">
                      <CommentItem
                        comment={reply}
                        awaiting={awaitingIds.has(reply.id)}
                        replyHref={replyHref(reply)}
                        inReplyTo={thread.id}
                      />
                    </li>
                  ))}
                </ol>
              ) : null}
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
