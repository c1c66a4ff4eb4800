import { Form } from "react-router";
import { FormError, TextAreaField, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import { type CommentField, commentForm, HONEYPOT_FIELD, REPLY_EMAIL_MAX } from "#domain/comment.ts";
import { REPLY_EMAIL_LABEL } from "#domain/comment-emails.ts";
import type { FormResult } from "#domain/forms.ts";

export type CommentFormResult = FormResult<CommentField, Record<CommentField, string>>;

interface CommentFormProps {
  action: string;
  result: CommentFormResult | undefined;
  /** Email is on: the optional address for replies is asked for. */
  repliesByEmail?: boolean;
}

export function CommentForm({ action, result, repliesByEmail = false }: CommentFormProps) {
  const form = useValidatedForm(commentForm, { id: "comment", result });

  return (
    <Form method="post" action={action} {...form.props} className="space-y-4">
      <FormError message={form.formError} />
      <TextField {...form.field("author")} label="Name" autoComplete="name" defaultValue={result?.values.author} />
      <TextAreaField {...form.field("content")} label="Comment" rows={5} defaultValue={result?.values.content} />
      {repliesByEmail ? (
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
        Post Comment
      </button>
    </Form>
  );
}
