import { useFetcher } from "react-router";
import { FormError, TextAreaField } from "~/components/ui/field";
import { useValidatedForm } from "~/lib/forms";
import { MODERATOR_REPLY_INTENT, REPLY_TO_FIELD, type WriterCommentField, writerCommentForm } from "#domain/comment.ts";
import type { FormResult } from "#domain/forms.ts";

/** A refused reply as the action answers it: what was typed, and the comment it answered. */
export type ReplyFormResult = FormResult<WriterCommentField, { content: string; replyTo: string }>;

interface CommentReplyFormProps {
  comment: { id: string; author: string; postSlug: string };
  /** A held comment is approved by answering it: the button says so. */
  held: boolean;
  back: string;
  /** The action's answer without JavaScript, when it was about this comment. */
  result: ReplyFormResult | undefined;
}

/**
 * "Reply" under a comment on the Comments screen: a plain form inside a disclosure, so it
 * works without JavaScript; a refusal opens it again with the text kept.
 */
export function CommentReplyForm({ comment, held, back, result }: CommentReplyFormProps) {
  const fetcher = useFetcher<ReplyFormResult>();
  const shown = fetcher.data ?? result;
  const form = useValidatedForm(writerCommentForm, { id: `reply-${comment.id}`, result: shown });
  return (
    <details open={shown !== undefined} className="mt-2 w-full">
      <summary className="cursor-pointer rounded px-2 py-1 font-medium text-indigo-700 hover:underline dark:text-indigo-300">
        Reply<span className="sr-only"> to {comment.author}</span>
      </summary>
      <fetcher.Form method="post" {...form.props} className="mt-2 space-y-2">
        <FormError message={form.formError} />
        <input type="hidden" name="intent" value={MODERATOR_REPLY_INTENT} />
        <input type="hidden" name={REPLY_TO_FIELD} value={comment.id} />
        <input type="hidden" name="post" value={comment.postSlug} />
        <input type="hidden" name="back" value={back} />
        <TextAreaField
          {...form.field("content")}
          label={`Your reply to ${comment.author}`}
          rows={3}
          defaultValue={shown?.values.content}
        />
        <button
          type="submit"
          className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-800 dark:bg-indigo-300 dark:text-slate-950 dark:hover:bg-indigo-200"
        >
          {held ? "Approve and reply" : "Publish reply"}
        </button>
      </fetcher.Form>
    </details>
  );
}
