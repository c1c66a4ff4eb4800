import { data } from "react-router";
import type { FieldErrors } from "~/lib/forms";
import { collectFieldErrors } from "~/lib/forms";
import { type PostFormValues, postFormValues, type PostInput, postSchema } from "~/schemas/post";

export const SAVE_FAILED_MESSAGE = "Failed to save post. Please try again.";

export interface PostFormActionData {
  values: PostFormValues;
  errors: FieldErrors<keyof PostInput>;
  formError?: string;
}

/** The submitted post, validated with the schema the browser used; a 400 with per-field errors otherwise. */
export async function readPostSubmission(
  request: Request,
): Promise<{ input: PostInput; values: PostFormValues } | { invalid: ReturnType<typeof data<PostFormActionData>> }> {
  const values = postFormValues(await request.formData());
  const parsed = postSchema.safeParse(values);
  if (!parsed.success) {
    return { invalid: data({ values, errors: collectFieldErrors(parsed.error) }, { status: 400 }) };
  }
  return { input: parsed.data, values };
}

/** What the admin typed comes back with the spec's message, so nothing is lost when the database fails. */
export function saveFailed(values: PostFormValues) {
  return data<PostFormActionData>({ values, errors: {}, formError: SAVE_FAILED_MESSAGE }, { status: 503 });
}
