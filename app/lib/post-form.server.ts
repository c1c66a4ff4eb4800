import { data } from "react-router";
import type { DomainError } from "#domain/errors.ts";
import { postForm, type PostFormValues } from "#domain/post.ts";
import { formFailure } from "./forms.server.ts";
import type { DomainFailure, RouteErrorData } from "./route-errors.server.ts";

type PostFormField = (typeof postForm.fields)[number];

/**
 * How the editor's actions answer a domain error (through answerDomainErrors): a slug another
 * post holds is said beside the Slug field, anything else above the form, and what the writer
 * typed comes back either way. A post that is gone (404) is the page's error, not the form's.
 */
export function refusePostForm(values: PostFormValues) {
  return (failure: DomainFailure, error: DomainError) => {
    if (failure.status === 404) {
      throw data<RouteErrorData>({ message: failure.message }, { status: 404, headers: failure.headers });
    }
    const refusal =
      error.code === "SLUG_TAKEN" ? { errors: { slug: failure.message } } : { formError: failure.message };
    return formFailure<PostFormField, PostFormValues>(values, refusal, failure.status, failure.headers);
  };
}
