import { data } from "react-router";
import type { DomainError } from "#domain/errors.ts";
import type { PageField, PageFormValues } from "#domain/page.ts";
import { formFailure } from "./forms.server.ts";
import type { DomainFailure, RouteErrorData } from "./route-errors.server.ts";

export const SAVE_PAGE_FAILED_MESSAGE = "Failed to save page. Please try again.";

/**
 * How the page form's actions answer a domain error (through answerDomainErrors), as the post
 * form's do: a slug the site keeps (400) or another page holds (409) is said beside the Slug
 * field, anything else above the form, and what the writer typed comes back either way. A page
 * that is gone (404) is the screen's error, not the form's.
 */
export function refusePageForm(values: PageFormValues) {
  return (failure: DomainFailure, error: DomainError) => {
    if (failure.status === 404) {
      throw data<RouteErrorData>({ message: failure.message }, { status: 404, headers: failure.headers });
    }
    const onSlug = error.code === "SLUG_TAKEN" || error.code === "PAGE_SLUG_RESERVED";
    const refusal = onSlug ? { errors: { slug: failure.message } } : { formError: failure.message };
    return formFailure<PageField, PageFormValues>(values, refusal, failure.status, failure.headers);
  };
}
