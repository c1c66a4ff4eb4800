import { data, Form, redirect, useLocation } from "react-router";
import { Panel } from "~/components/admin/panel";
import { FormError } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { requireAdmin, writerOf } from "~/lib/auth.server";
import { formFailure, parseSubmission } from "~/lib/forms.server";
import {
  INDIEAUTH_CONSENT_PATH,
  indieAuthConsentForm,
  MICROPUB_SCOPE_LABELS,
  MICROPUB_SCOPES,
} from "#domain/micropub.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/indieauth";

/** The sign-in request in the address, checked again on every load and answer (nothing is kept between them). */
function checkedRequest(request: Request, context: Route.LoaderArgs["context"]) {
  const { indieAuth } = context.get(appContext).services.micropub;
  const params = Object.fromEntries(new URL(request.url).searchParams);
  try {
    return indieAuth.checkRequest(params);
  } catch (error) {
    const message = error instanceof Error ? error.message : "The request could not be read";
    throw data({ message: `This sign-in request cannot be answered: ${message}.` }, { status: 400 });
  }
}

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAdmin({ request, context });
  const checked = checkedRequest(request, context);
  return { ...checked, writer: user.username };
}

/** Allow: a single-use code goes back to the app with the ticked scopes; Deny: the app is told so. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const checked = checkedRequest(request, context);
  const { indieAuth } = context.get(appContext).services.micropub;
  const submission = await parseSubmission(request, indieAuthConsentForm);
  if (!submission.ok) return formFailure({}, { formError: "Choose Allow or Deny." }, 400);
  if (submission.input.decision === "deny") return redirect(indieAuth.deny(checked));
  // Only what the app asked for can be granted, whatever the form says.
  const granted = submission.input.scope.filter((scope) => checked.scopes.includes(scope));
  return redirect(await indieAuth.approve(writerOf(user), checked, granted));
}

/**
 * The writer's consent to an app signing in with IndieAuth: the app's client_id and where the
 * answer goes, as sent (this blog does not fetch apps' details), and each scope asked for, ticked.
 */
export default function IndieAuthConsent({ loaderData, actionData }: Route.ComponentProps) {
  const { clientId, redirectUri, scopes, writer } = loaderData;
  // The request rides in the address, so the answer is posted to it with the same query.
  const { search } = useLocation();
  return (
    <>
      <title>Let an app in · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Let an app in</h1>
      <div className="mt-6 space-y-6">
        <FormError message={actionData?.formError} />
        <Panel id="indieauth-heading" title="An app asks to post as you">
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="font-medium">App</dt>
              <dd className="break-all" data-testid="indieauth-client">
                {clientId}
              </dd>
            </div>
            <div>
              <dt className="font-medium">Your answer goes to</dt>
              <dd className="break-all" data-testid="indieauth-redirect">
                {redirectUri}
              </dd>
            </div>
          </dl>
          <Form method="post" action={`${INDIEAUTH_CONSENT_PATH}${search}`} className="mt-4 space-y-4">
            {scopes.length === 0 ? (
              <p className="text-sm">It asks only to know that you are {writer}: it will not be able to post.</p>
            ) : (
              <fieldset className="space-y-2">
                <legend className="text-sm font-medium">It may, as {writer}:</legend>
                {MICROPUB_SCOPES.filter((scope) => scopes.includes(scope)).map((scope) => (
                  <label key={scope} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="scope" value={scope} defaultChecked />
                    {MICROPUB_SCOPE_LABELS[scope]} <span className="text-slate-600 dark:text-slate-400">({scope})</span>
                  </label>
                ))}
              </fieldset>
            )}
            <div className="flex gap-3">
              <button type="submit" name="decision" value="allow" className={buttonStyles.primary}>
                Allow
              </button>
              <button type="submit" name="decision" value="deny" className={buttonStyles.secondary}>
                Deny
              </button>
            </div>
          </Form>
        </Panel>
      </div>
    </>
  );
}
