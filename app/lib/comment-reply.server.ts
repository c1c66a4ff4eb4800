import type { RouterContextProvider } from "react-router";
import { REPLY_PARENT_GONE_MESSAGE, REPLY_TO_FIELD, writerCommentForm } from "#domain/comment.ts";
import { formText, validateForm } from "#domain/forms.ts";
import type { SessionUser } from "#server/accounts/index.ts";
import { appContext } from "#server/request-context.ts";
import { redirectWithFlash } from "./flash.server.ts";
import { formFailure } from "./forms.server.ts";
import { answerDomainErrors } from "./route-errors.server.ts";

/**
 * A writer's reply from the Comments screen (the form's text, the comment it answers and that
 * comment's post), published at once under their name; back to `back` with a notice, or to
 * the form with what was typed and why it was refused. The values name the comment answered,
 * so the screen shows the refusal on its row.
 */
export async function replyFromModeration(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  formData: FormData,
  writer: SessionUser,
  back: string,
) {
  const values = { ...writerCommentForm.read(formData), replyTo: formText(formData, REPLY_TO_FIELD) };
  const parsed = validateForm(writerCommentForm, values);
  if (!parsed.success) return formFailure(values, { errors: parsed.errors }, 400);
  const { services } = context.get(appContext);
  const messages = {
    DATABASE_UNAVAILABLE: "Failed to add comment. Please try again.",
    POST_NOT_FOUND: REPLY_PARENT_GONE_MESSAGE,
    POST_NOT_AVAILABLE: "This post is not public: replies show only on public posts.",
  };
  const answer = (failure: { message: string; status: number }) =>
    formFailure(values, { formError: failure.message }, failure.status);
  return answerDomainErrors(context, { messages, answer }, async () => {
    await services.comments.addWriterComment(
      formText(formData, "post"),
      { content: parsed.data.content, replyTo: values.replyTo },
      { id: writer.id, name: writer.username },
    );
    return redirectWithFlash(request, back, "reply-published");
  });
}
