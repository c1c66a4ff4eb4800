import { Form, Link } from "react-router";
import { FormError, TextAreaField, TextField } from "~/components/ui/field";
import { buttonStyles, textLinkStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import {
  type CommentField,
  commentForm,
  HONEYPOT_FIELD,
  REPLY_EMAIL_MAX,
  REPLY_TO_FIELD,
  writerCommentForm,
} from "#domain/comment.ts";
import { REPLY_EMAIL_LABEL } from "#domain/comment-emails.ts";
import type { FormDefinition, FormResult } from "#domain/forms.ts";
import { AuthorBadge } from "./author-badge";

export type CommentFormResult = FormResult<CommentField, Partial<Record<CommentField, string>>>;

/** The comment a reply answers, as the form names it, and where "Cancel reply" goes back to. */
export interface ReplyingTo {
  id: string;
  author: string;
  cancelHref: string;
}

interface CommentFormProps {
  action: string;
  result: CommentFormResult | undefined;
  replyingTo?: ReplyingTo;
  /** A signed-in writer of the blog: their display name stands in for the Name field. */
  writer?: { name: string };
  /** Email is on: the optional address for replies is asked for (of readers). */
  repliesByEmail?: boolean;
}

export function CommentForm({ action, result, replyingTo, writer, repliesByEmail = false }: CommentFormProps) {
  const definition: FormDefinition<CommentField, unknown, unknown> = writer ? writerCommentForm : commentForm;
  const form = useValidatedForm(definition, { id: "comment", result });
  const refusedField = Object.values(form.errors).some(Boolean);

  return (
    <Form method="post" action={action} {...form.props} className="space-y-4">
      <FormError message={form.formError} />
      {replyingTo ? (
        <p className="text-sm text-slate-800 dark:text-slate-200">
          Replying to <strong>{replyingTo.author}</strong>{" "}
          <Link to={replyingTo.cancelHref} className={textLinkStyles}>
            Cancel reply
          </Link>
          <input type="hidden" name={REPLY_TO_FIELD} value={replyingTo.id} />
        </p>
      ) : null}
      {writer ? (
        <p className="text-sm text-slate-800 dark:text-slate-200">
          Commenting as <strong>{writer.name}</strong> <AuthorBadge />
        </p>
      ) : (
        <TextField {...form.field("author")} label="Name" autoComplete="name" defaultValue={result?.values.author} />
      )}
      {/* A refusal of the whole comment (a duplicate, too soon) focuses the text, which brings the form and its message into view. */}
      <TextAreaField
        {...form.field("content")}
        autoFocus={form.field("content").autoFocus || (form.formError !== undefined && !refusedField)}
        label="Comment"
        rows={5}
        defaultValue={result?.values.content}
      />
      {repliesByEmail && !writer ? (
        <TextField
          {...form.field("replyEmail")}
          label={REPLY_EMAIL_LABEL}
          hint="Only for replies to this comment; every email has a link to stop them."
          type="email"
          autoComplete="email"
          maxLength={REPLY_EMAIL_MAX}
          defaultValue={result?.values.replyEmail}
        />
      ) : null}
      <div className="sr-only" aria-hidden="true">
        <label htmlFor="comment-website">Leave this field empty</label>
        <input id="comment-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {/* The post page loads no React (docs/decisions/0011): the page script shows the pending label. */}
      <button type="submit" data-pending-label="Posting…" className={buttonStyles.primary}>
        {replyingTo ? "Post Reply" : "Post Comment"}
      </button>
    </Form>
  );
}
