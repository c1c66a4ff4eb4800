import type { AddressMark } from "#domain/address-mark.ts";
import type { ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { formatDate, truncate } from "~/lib/format";
import { postPath } from "~/lib/post-card-data";
import type { CommentStatus, ModeratedComment, ModerationAction } from "#domain/comment.ts";
import { RemoteAuthorLink } from "~/components/site/remote-author-link";
import { AuthorBadge } from "~/components/site/author-badge";
import { CommentReplyForm, type ReplyFormResult } from "./comment-reply-form";
import { TITLE_MAX } from "./admin-list";

/** Longer comments show this much, and the rest behind "Show all". */
const CLIP_AT = 140;

export const TAB_LABELS: Record<CommentStatus, string> = { pending: "Pending", approved: "Approved", spam: "Spam" };
const ACTION_LABELS: Record<ModerationAction, string> = {
  approve: "Approve",
  unapprove: "Unapprove",
  spam: "Mark as spam",
  delete: "Delete",
};
/** What each tab offers: every action moves a comment out of the tab it is in. */
const ACTIONS_BY_TAB: Record<CommentStatus, ModerationAction[]> = {
  pending: ["approve", "spam", "delete"],
  approved: ["unapprove", "spam", "delete"],
  spam: ["approve", "delete"],
};

export const COMMENT_CELL_CLASS = "px-3 py-3";
const tableCell = `${COMMENT_CELL_CLASS} align-top`;

interface ModerationButtonsProps {
  status: CommentStatus;
  buttonClass: (intent: ModerationAction) => string;
  label: (intent: ModerationAction, name: string) => ReactNode;
}

/** One submit button per action the tab offers, each sending its action as the form's `intent`. */
export function ModerationButtons({ status, buttonClass, label }: ModerationButtonsProps) {
  return ACTIONS_BY_TAB[status].map((intent) => (
    <button key={intent} type="submit" name="intent" value={intent} className={buttonClass(intent)}>
      {label(intent, ACTION_LABELS[intent])}
    </button>
  ));
}

/** A comment as the list shows it: its address as a mark, never its hash. */
export type ListedComment = Omit<ModeratedComment, "status" | "postId" | "ipHash"> & {
  addressMark: AddressMark | null;
};

interface CommentRowProps {
  comment: ListedComment;
  status: CommentStatus;
  back: string;
  hydrated: boolean;
  /** A refused reply to this comment, as the action answered it without JavaScript. */
  replyResult?: ReplyFormResult;
}

/** How a reply's parent stands, when readers do not see it (and so do not see the reply either). */
const PARENT_HIDDEN: Record<CommentStatus, string> = {
  approved: "",
  pending: " (pending, so the thread is hidden)",
  spam: " (marked as spam, so the thread is hidden)",
};

/** One row with its own fetcher: while its action is on the way, the row is already gone from the tab. */
export function CommentRow({ comment, status, back, hydrated, replyResult }: CommentRowProps) {
  const fetcher = useFetcher();
  if (fetcher.state !== "idle" && fetcher.formData) return null;
  const clipped = comment.content.length > CLIP_AT;
  return (
    <tr className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
      <td className={tableCell}>
        <input
          type="checkbox"
          name="id"
          value={comment.id}
          form="bulk-moderation"
          aria-label={`Select the comment by ${comment.author}`}
          className="h-4 w-4 accent-indigo-600"
        />
      </td>
      {/* The name wraps: a long one held on one line pushed Actions out of a 1280 px window. */}
      <td className={`${tableCell} font-medium break-words`}>
        {comment.author}
        {comment.byAuthor ? <AuthorBadge /> : null}
        {comment.remoteAuthor ? (
          <RemoteAuthorLink
            author={comment.remoteAuthor}
            className="block text-xs font-normal text-indigo-700 dark:text-indigo-300"
          />
        ) : null}
        {comment.mentionSource ? (
          <span className="block text-xs font-normal">
            by Webmention from{" "}
            <a
              href={comment.mentionSource}
              rel="nofollow ugc noopener noreferrer"
              className="break-all text-indigo-700 underline dark:text-indigo-300"
            >
              {comment.mentionSource}
            </a>
          </span>
        ) : null}
      </td>
      <td className={`${tableCell} max-w-md break-words whitespace-pre-line`}>
        {comment.parent ? (
          <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">
            In reply to <strong>{comment.parent.author}</strong>
            {PARENT_HIDDEN[comment.parent.status]}: “{truncate(comment.parent.content, CLIP_AT)}”
          </p>
        ) : null}
        {clipped ? (
          <details>
            <summary className="cursor-pointer">{truncate(comment.content, CLIP_AT)}</summary>
            <p className="mt-2">{comment.content}</p>
          </details>
        ) : (
          comment.content
        )}
      </td>
      <td className={tableCell}>
        <Link to={postPath(comment.postSlug)} className="font-medium text-indigo-700 underline dark:text-indigo-300">
          {truncate(comment.postTitle, TITLE_MAX)}
        </Link>
      </td>
      <td className={`${tableCell} whitespace-nowrap`}>
        <time dateTime={comment.createdAt}>{formatDate(comment.createdAt)}</time>
      </td>
      <td className={tableCell}>{comment.addressMark ? <AddressMarkBadge mark={comment.addressMark} /> : "—"}</td>
      <td className={tableCell}>{comment.heldReason ?? "—"}</td>
      <td className={tableCell}>
        <fetcher.Form method="post" className="flex flex-wrap gap-1">
          <input type="hidden" name="id" value={comment.id} />
          <input type="hidden" name="back" value={back} />
          {hydrated ? <input type="hidden" name="inPlace" value="1" /> : null}
          <ModerationButtons
            status={status}
            buttonClass={(intent) =>
              `rounded px-2 py-1 font-medium hover:underline ${
                intent === "delete" || intent === "spam"
                  ? "text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
                  : "text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
              }`
            }
            label={(_intent, name) => (
              <>
                {name}
                <span className="sr-only"> the comment by {comment.author}</span>
              </>
            )}
          />
        </fetcher.Form>
        {status === "spam" ? null : (
          <CommentReplyForm comment={comment} held={status === "pending"} back={back} result={replyResult} />
        )}
      </td>
    </tr>
  );
}

/** Newer and older pages of a tab; nothing when the tab fits on one. */
export function CommentPager({
  page,
  pageCount,
  hrefFor,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between text-sm">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className="font-medium text-indigo-700 underline dark:text-indigo-300">
          Newer comments
        </Link>
      ) : (
        <span />
      )}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className="font-medium text-indigo-700 underline dark:text-indigo-300">
          Older comments
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** The commenter's address as a coloured mark; hovering it (or a screen reader) says who else wrote from it. */
function AddressMarkBadge({ mark }: { mark: AddressMark }) {
  return (
    <span title={mark.description} className="inline-flex items-center gap-1.5 whitespace-nowrap">
      {/* The description rides the dot's label, so the cell's text stays the code alone. */}
      <span
        role="img"
        aria-label={mark.description}
        className="inline-block h-3 w-3 shrink-0 rounded-full"
        style={{ backgroundColor: `hsl(${mark.hue} 65% 45%)` }}
      />
      <span className="font-mono text-xs">{mark.code}</span>
    </span>
  );
}
