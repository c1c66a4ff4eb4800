import { useNavigation } from "react-router";
import { formatDate, pluralise } from "~/lib/format";
import { commentSchema } from "~/schemas/comment";
import type { Comment } from "../../../server/repositories/comments.ts";
import { CommentForm, type CommentFormResult, readCommentForm } from "./comment-form";

interface CommentSectionProps {
  comments: Comment[];
  /** The post's address: the form posts there. */
  action: string;
  result: CommentFormResult | undefined;
}

interface CommentItemProps {
  author: string;
  content: string;
  /** When it was posted, or that it is still being posted. */
  status: React.ReactNode;
}

function CommentItem({ author, content, status }: CommentItemProps) {
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="font-semibold text-slate-900 dark:text-white">{author}</p>
        <span className="text-sm text-slate-600 dark:text-slate-400">{status}</span>
      </div>
      <p className="mt-2 break-words whitespace-pre-line text-slate-800 dark:text-slate-200">{content}</p>
    </>
  );
}

/** While a valid comment is on its way, it already shows in the list. */
function usePendingComment(action: string) {
  const navigation = useNavigation();
  if (navigation.formAction !== action || !navigation.formData) return null;
  const parsed = commentSchema.safeParse(readCommentForm(navigation.formData));
  return parsed.success ? parsed.data : null;
}

export function CommentSection({ comments, action, result }: CommentSectionProps) {
  const pending = usePendingComment(action);
  const itemStyles = "rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900";
  return (
    <section aria-labelledby="comments" className="space-y-8">
      <h2 id="comments" className="font-serif text-2xl font-bold text-slate-900 dark:text-white">
        {pluralise(comments.length, "Comment")}
      </h2>
      <div className="rounded-2xl bg-slate-50 p-5 sm:p-6 dark:bg-slate-900/60">
        <h3 className="mb-4 text-lg font-semibold text-slate-900 dark:text-white">Leave a comment</h3>
        {/* Keyed by the newest comment, so the form empties once its comment is saved. */}
        <CommentForm key={comments[0]?.id ?? "none"} action={action} result={result} />
      </div>
      {comments.length > 0 || pending ? (
        <ol className="space-y-4" aria-label="Comments, newest first">
          {pending ? (
            <li className={`${itemStyles} opacity-70`} aria-busy="true">
              <CommentItem author={pending.author} content={pending.content} status="Posting…" />
            </li>
          ) : null}
          {comments.map((comment) => (
            <li key={comment.id} id={`comment-${comment.id}`} className={`scroll-mt-24 ${itemStyles}`}>
              <CommentItem
                author={comment.author}
                content={comment.content}
                status={<time dateTime={comment.createdAt}>{formatDate(comment.createdAt)}</time>}
              />
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-slate-700 dark:text-slate-300">No comments yet. Be the first to share your thoughts.</p>
      )}
    </section>
  );
}
