import type { DomainError } from "#domain/errors.ts";
import type { PostFormValues } from "#domain/post.ts";
import { formFailure } from "./forms.server.ts";

/** The writer's slug belongs to another post: said beside the Slug field, with the rest kept. */
export function slugTaken(values: PostFormValues, error: DomainError) {
  return formFailure(values, { errors: { slug: error.message } }, error.status);
}
