// An admin list's Delete, for every list that asks first (components/admin/admin-list.tsx,
// ConfirmDelete): what it posts, where it comes back to, and how a failure reads.
import { data, type RouterContextProvider, redirect } from "react-router";
import { requireAdmin } from "./auth.server.ts";
import { type FlashKey, redirectWithFlash } from "./flash.server.ts";
import { readFormData } from "./forms.server.ts";
import { answerDomainErrors, type DomainFailure, throwAsRouteError } from "./route-errors.server.ts";
import type { DomainError, DomainErrorCode } from "#domain/errors.ts";
import { formText } from "#domain/forms.ts";
import { type AppContext, appContext } from "#server/request-context.ts";
import type { SessionUser } from "#server/accounts/index.ts";

interface ListDelete {
  /** Deletes the item; false when there was nothing to delete. */
  remove: (id: string, user: SessionUser, services: AppContext["services"]) => Promise<boolean>;
  /** The list as it was (its page or search kept), read from the request and the form. */
  back: (url: URL, formData: FormData) => string;
  /** The notice the list shows once something was deleted. */
  deleted: FlashKey;
  /** The error that says the item is gone already: nothing to tell, as after a failed delete. */
  gone?: DomainErrorCode;
}

/**
 * Takes the confirmed delete (`intent=delete` and `id`) and returns to the list. docs/spec.md §8:
 * a failed delete is logged only (describeDomainError records the outage) and an item already
 * gone needs no message; the writer sees the list as it is.
 */
export async function deleteFromList(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  { remove, back, deleted, gone }: ListDelete,
): Promise<Response> {
  const user = requireAdmin({ request, context });
  const { services } = context.get(appContext);
  const formData = await readFormData(request);
  if (formText(formData, "intent") !== "delete") {
    throw data({ message: "Unknown action" }, { status: 400 });
  }
  const id = formText(formData, "id");
  const list = back(new URL(request.url), formData);
  const answer = (_failure: DomainFailure, error: DomainError) => {
    if (error.code !== "DATABASE_UNAVAILABLE" && error.code !== gone) throwAsRouteError(error, context);
    return false;
  };
  const removed = await answerDomainErrors(context, { answer }, () => remove(id, user, services));
  return removed ? redirectWithFlash(request, list, deleted) : redirect(list);
}
