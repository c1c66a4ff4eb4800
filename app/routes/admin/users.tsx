import { data, Form, Link, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { Notice, Panel } from "~/components/admin/panel";
import { FormError, TextField } from "~/components/ui/field";
import { buttonStyles, inputStyles, textLinkStyles } from "~/components/ui/styles";
import { requireOwner } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { requestedPage } from "~/lib/pagination.server";
import { formatDate } from "~/lib/format";
import { useValidatedForm } from "~/lib/forms";
import { withRouteErrors } from "~/lib/route-errors.server";
import { EMAIL_MAX, inviteForm, ROLE_LABELS } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/users";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load users. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    const owner = requireOwner({ request, context });
    const page = requestedPage(request);
    const { services } = context.get(appContext);
    const list = await services.users.listPage(owner, page);
    const emailOn = await services.email.isOn();
    const flash = await takeFlash(request);
    return data({ ...list, page, ownerId: owner.id, emailOn, notice: flash.message }, { headers: flash.headers });
  },
);

/**
 * The invitation form posts to users-invite.tsx, the buttons to users-manage.tsx. A refusal,
 * or a new invitation link, renders this page at the child's address with that route's answer.
 */
export default function Users({ loaderData }: Route.ComponentProps) {
  const { accounts, invitations, page, hasNextPage, ownerId, emailOn, notice } = loaderData;
  const busy = useNavigation().state === "submitting";
  const inviteResult = useRoute("routes/admin/users-invite")?.actionData;
  const manageResult = useRoute("routes/admin/users-manage")?.actionData;
  const form = useValidatedForm(inviteForm, { id: "invite", result: inviteResult });
  const invited = inviteResult?.created;
  return (
    <>
      <title>Users · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Users</h1>
      <div className="mt-6 space-y-6">
        {/* A refusal that follows a notice is not a reload, so the notice is hidden by hand. */}
        <Notice message={inviteResult || manageResult ? undefined : notice} />
        <FormError message={manageResult?.formError} />
        <Panel id="invite-heading" title="Invite someone">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            They join as an editor: they can write and publish. The link works once, for 7 days.{" "}
            {emailOn
              ? "It goes to them by email, and is shown here too, to pass on another way."
              : "Email is not set up: copy the link and send it to them yourself."}
          </p>
          <Form method="post" action="/admin/users/invite" {...form.props} className="flex flex-wrap items-end gap-3">
            <div className="min-w-64 flex-1">
              <TextField
                {...form.field("email")}
                label="Email"
                type="email"
                autoComplete="off"
                maxLength={EMAIL_MAX}
                defaultValue={inviteResult?.values.email ?? ""}
              />
            </div>
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Create invitation link
            </button>
          </Form>
          {invited ? (
            <div role="status" className="space-y-2">
              {invited.emailed ? (
                <p className="text-sm">
                  An email with the link is on its way to <strong>{invited.email}</strong>.
                </p>
              ) : null}
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
                    <ManageButton
                      id={account.id}
                      intent="transfer"
                      label={`Make owner: ${account.displayName}`}
                      busy={busy}
                    >
                      Make owner
                    </ManageButton>
                    <ManageButton id={account.id} intent="remove" label={`Remove ${account.displayName}`} busy={busy}>
                      Remove
                    </ManageButton>
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
                  <ManageButton
                    id={invitation.id}
                    intent="revoke"
                    label={`Revoke the invitation for ${invitation.email}`}
                    busy={busy}
                  >
                    Revoke
                  </ManageButton>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}

/** One of the owner's buttons, each its own small form posting to users-manage.tsx. */
function ManageButton({
  id,
  intent,
  label,
  busy,
  children,
}: {
  id: string;
  intent: "revoke" | "transfer" | "remove";
  label: string;
  busy: boolean;
  children: string;
}) {
  return (
    <Form method="post" action="/admin/users/manage">
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={busy}
        className={buttonStyles.secondary}
        aria-label={label}
      >
        {children}
      </button>
    </Form>
  );
}
