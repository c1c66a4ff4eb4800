import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { buttonStyles, fieldErrorStyles, inputStyles, labelStyles } from "~/components/ui/styles";
import { collectFieldErrors, type FieldErrors, formText } from "~/lib/forms";
import { commentSchema } from "~/schemas/comment";

export type CommentField = "author" | "content";

/** What the action sends back when it did not add the comment: what was typed, and why. */
export interface CommentFormResult {
  values: Record<CommentField, string>;
  errors: FieldErrors<CommentField>;
  formError?: string;
}

/**
 * Browsers send a textarea's line breaks as CRLF; reading them as LF makes the server count
 * the same length the browser checked, and stores one kind of line break.
 */
export function readCommentForm(formData: FormData): Record<CommentField, string> {
  return {
    author: formText(formData, "author"),
    content: formText(formData, "content").replace(/\r\n?/g, "\n"),
  };
}

interface CommentFormProps {
  action: string;
  result: CommentFormResult | undefined;
}

/**
 * Checked in the browser with the same schema the action uses, so most mistakes never
 * leave the page; without JavaScript the action's answer shows the same messages.
 */
export function CommentForm({ action, result }: CommentFormProps) {
  const navigation = useNavigation();
  const [errors, setErrors] = useState<FieldErrors<CommentField>>(result?.errors ?? {});
  const [shownResult, setShownResult] = useState(result);
  if (result !== shownResult) {
    setShownResult(result);
    setErrors(result?.errors ?? {});
  }
  const submitting = navigation.state !== "idle" && navigation.formAction === action;

  const validateBeforeSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const parsed = commentSchema.safeParse(readCommentForm(new FormData(form)));
    if (parsed.success) {
      setErrors({});
      return;
    }
    event.preventDefault();
    const found = collectFieldErrors<CommentField>(parsed.error);
    setErrors(found);
    const firstInvalid = (["author", "content"] as const).find((field) => found[field]);
    if (firstInvalid) form.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
  };

  const clearError = (field: CommentField) => {
    if (errors[field]) setErrors({ ...errors, [field]: undefined });
  };

  return (
    <Form method="post" action={action} noValidate onSubmit={validateBeforeSubmit} className="space-y-4">
      {result?.formError ? (
        <p
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {result.formError}
        </p>
      ) : null}
      <div>
        <label htmlFor="comment-author" className={labelStyles}>
          Name
        </label>
        <input
          id="comment-author"
          name="author"
          autoComplete="name"
          defaultValue={result?.values.author}
          aria-invalid={errors.author ? true : undefined}
          aria-describedby={errors.author ? "comment-author-error" : undefined}
          onChange={() => clearError("author")}
          className={inputStyles}
        />
        {errors.author ? (
          <p id="comment-author-error" className={fieldErrorStyles}>
            {errors.author}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor="comment-content" className={labelStyles}>
          Comment
        </label>
        <textarea
          id="comment-content"
          name="content"
          rows={5}
          defaultValue={result?.values.content}
          aria-invalid={errors.content ? true : undefined}
          aria-describedby={errors.content ? "comment-content-error" : undefined}
          onChange={() => clearError("content")}
          className={inputStyles}
        />
        {errors.content ? (
          <p id="comment-content-error" className={fieldErrorStyles}>
            {errors.content}
          </p>
        ) : null}
      </div>
      <button type="submit" disabled={submitting} className={buttonStyles.primary}>
        {submitting ? "Posting…" : "Post Comment"}
      </button>
    </Form>
  );
}
