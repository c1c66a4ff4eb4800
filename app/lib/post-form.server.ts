import { data } from "react-router";
import type { DomainError, DomainErrorCode } from "#domain/errors.ts";
import { formFailure } from "./forms.server.ts";
import type { DomainFailure, RouteErrorData } from "./route-errors.server.ts";

/** Refusals of the slug itself: another post or page holds it, or the site keeps it for its own routes. */
const SLUG_REFUSALS: ReadonlySet<DomainErrorCode> = new Set(["SLUG_TAKEN", "PAGE_SLUG_RESERVED"]);

/**
 * How the editor's actions, for posts and pages alike, answer a domain error (through
 * answerDomainErrors): a refused slug is said beside the Slug field, anything else above the
 * form, and what the writer typed comes back either way. A post or page that is gone (404)
 * is the screen's error, not the form's.
 */
export function refuseEditorForm<Values extends { slug: string }>(values: Values) {
  type Field = keyof Values & string;
  return (failure: DomainFailure, error: DomainError) => {
    if (failure.status === 404) {
      throw data<RouteErrorData>({ message: failure.message }, { status: 404, headers: failure.headers });
    }
    const refusal = SLUG_REFUSALS.has(error.code)
      ? { errors: { slug: failure.message } as Partial<Record<Field, string>> }
      : { formError: failure.message };
    return formFailure<Field, Values>(values, refusal, failure.status, failure.headers);
  };
}
