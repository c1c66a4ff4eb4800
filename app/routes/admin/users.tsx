import { data, Form, Link, useNavigation } from "react-router";
import { Notice, Panel } from "~/components/admin/panel";
import { Field, FormError } from "~/components/ui/field";
import { buttonStyles, inputStyles, textLinkStyles } from "~/components/ui/styles";
import { requireOwner } from "~/lib/auth.server";
import { requestedPage } from "~/lib/pagination.server";
import { formatDate } from "~/lib/format";
import { useValidatedForm } from "~/lib/forms";
import { formFailure, parseSubmission, readFormData } from "~/lib/forms.server";
import { describeDomainError, throwAsRouteError } from "~/lib/route-errors.server";
import { EMAIL_MAX, inviteForm, ROLE_LABELS } from "#domain/account.ts";
import { type FormResult, formText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/users";

const FAILED_MESSAGE = "That did not work. Please try again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = requireOwner({ request, context });
  const page = requestedPage(request);
  try {
    const list = await context.get(appContext).services.users.listPage(owner, page);
    return { ...list, page, ownerId: owner.id };
  } catch (error) {
    throwAsRouteError(error, context, { DATABASE_UNAVAILABLE: "Failed to load users. Please try again." });
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const { services, site } = context.get(appContext);
  const intent = formText(await readFormData(request.clone()), "intent");
  if (intent === "invite") {
    const submission = await parseSubmission(request, inviteForm);
    if (!submission.ok) return submission.response;
    try {
      const { token, invitation } = await services.users.invite(owner, submission.input.email);
      const link = `${site.siteUrl}/invite?${new URLSearchParams({ token })}`;
      return { values: { email: "" }, errors: {}, invited: { email: invitation.email, link } };
    } catch (error) {
      const failure = describeDomainError(error, context, { DATABASE_UNAVAILABLE: FAILED_MESSAGE });
      return formFailure(submission.values, { errors: { email: failure.message } }, failure.status, failure.headers);
    }
  }
  const formData = await readFormData(request);
  const id = formText(formData, "id");
  try {
    if (intent === "revoke") await services.users.revokeInvitation(owner, id);
    else if (intent === "transfer") await services.users.transferOwnership(owner, id);
    else if (intent === "remove") await services.users.removeAccount(owner, id);
    else return data({ values: {}, errors: {}, formError: "Unknown action" }, { status: 400 });
    const done = { revoke: "Invitation revoked.", transfer: "Ownership transferred.", remove: "Account removed." };
    return { values: {}, errors: {}, notice: done[intent] };
  } catch (error) {
    const failure = describeDomainError(error, context, { DATABASE_UNAVAILABLE: FAILED_MESSAGE });
    return formFailure({}, { formError: failure.message }, failure.status, failure.headers);
  }
}

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { accounts, invitations, page, hasNextPage, ownerId } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const inviteResult =
    actionData && "email" in actionData.values ? (actionData as FormResult<"email", { email: string }>) : undefined;
  const form = useValidatedForm(inviteForm, { id: "invite", result: inviteResult });
  const invited = actionData && "invited" in actionData ? actionData.invited : undefined;
  const notice = actionData && "notice" in actionData ? actionData.notice : undefined;
  const otherError = actionData && !inviteResult && "formError" in actionData ? actionData.formError : undefined;
  return (
    <>
      <title>Users · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Users</h1>
      <div className="mt-6 space-y-6">
        <Notice message={notice} />
        <FormError message={otherError} />
        <Panel id="invite-heading" title="Invite someone">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            They join as an editor: they can write and publish. The link works once, for 7 days. There is no mail: copy
            the link and send it to them yourself.
          </p>
          <Form method="post" {...form.props} className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="invite" />
            <div className="min-w-64 flex-1">
              <Field {...form.field("email")} label="Email">
                {(control) => (
                  <input
                    {...control}
                    name="email"
                    type="email"
                    autoComplete="off"
                    maxLength={EMAIL_MAX}
                    defaultValue={inviteResult?.values.email ?? ""}
                    className={inputStyles}
                  />
                )}
              </Field>
            </div>
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Create invitation link
            </button>
          </Form>
          {invited ? (
            <div role="status" className="space-y-2">
              <p className="text-sm">
                Invitation for <strong>{invited.email}</strong> created. Copy this link now; it is not shown again:
              </p>
              <label htmlFor="invite-link" className="sr-only">
                Invitation link
              </label>
              <input id="invite-link" readOnly value={invited.link} className={`${inputStyles} font-mono text-sm`} />
            </div>
          ) : null}
        </Panel>

        <Panel id="accounts-heading" title="Accounts">
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {accounts.map((account) => (
              <li key={account.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-medium">
                    {account.displayName} <span className="text-sm font-normal">({ROLE_LABELS[account.role]})</span>
                  </p>
                  <p className="text-sm text-slate-600 dark:text-slate-400">
                    {account.email} · joined {formatDate(account.createdAt)}
                    {account.totpEnabled ? " · two-factor sign-in on" : ""}
                  </p>
                </div>
                {account.id === ownerId ? null : (
                  <div className="flex gap-2">
                    <Form method="post">
                      <input type="hidden" name="id" value={account.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="transfer"
                        disabled={busy}
                        className={buttonStyles.secondary}
                        aria-label={`Make owner: ${account.displayName}`}
                      >
                        Make owner
                      </button>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="id" value={account.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove"
                        disabled={busy}
                        className={buttonStyles.secondary}
                        aria-label={`Remove ${account.displayName}`}
                      >
                        Remove
                      </button>
                    </Form>
                  </div>
                )}
              </li>
            ))}
          </ul>
          <nav aria-label="Account pages" className="flex gap-4">
            {page > 1 ? (
              <Link to={`?page=${page - 1}`} className={textLinkStyles}>
                Previous
              </Link>
            ) : null}
            {hasNextPage ? (
              <Link to={`?page=${page + 1}`} className={textLinkStyles}>
                Next
              </Link>
            ) : null}
          </nav>
        </Panel>

        <Panel id="invitations-heading" title="Open invitations">
          {invitations.length === 0 ? (
            <p className="text-sm">No open invitations.</p>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <p className="text-sm">
                    {invitation.email} · expires {formatDate(invitation.expiresAt)}
                  </p>
                  <Form method="post">
                    <input type="hidden" name="id" value={invitation.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="revoke"
                      disabled={busy}
                      className={buttonStyles.secondary}
                      aria-label={`Revoke the invitation for ${invitation.email}`}
                    >
                      Revoke
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}
