import { Link } from "react-router";
import { textLinkStyles } from "~/components/ui/styles";
import { requireOwner } from "~/lib/auth.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { queryText } from "#domain/forms.ts";
import { describeSettingsChange } from "#domain/activity-words.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/activity";

const ACTION_LABELS: Record<string, string> = {
  "sign-in": "Signed in",
  "sign-in-failed": "Failed sign-in",
  "two-factor-enabled": "Turned on two-factor sign-in",
  "two-factor-disabled": "Turned off two-factor sign-in",
  "two-factor-reset": "Reset two-factor sign-in",
  "recovery-code-used": "Used a recovery code",
  "password-changed": "Changed the password",
  "user-invited": "Invited",
  "invitation-revoked": "Revoked the invitation of",
  "invitation-accepted": "Accepted an invitation",
  "ownership-transferred": "Transferred ownership to",
  "user-removed": "Removed the account of",
  "post-published": "Published",
  "post-unpublished": "Unpublished",
  "post-deleted": "Deleted",
  "page-published": "Published the page",
  "page-unpublished": "Unpublished the page",
  "page-deleted": "Deleted the page",
  "navigation-changed": "Changed the menus",
  "categories-changed": "Changed the categories",
  "app-key-created": "Created the app key",
  "app-key-revoked": "Revoked the app key",
  "app-write": "Through an app:",
  "app-signed-in": "Let an app in with IndieAuth:",
};

/** "2026-03-05T10:00:00.000Z~abc": where the next page starts (keyset pagination). */
function parseCursor(value: string) {
  const [createdAt, id] = value.split("~");
  return createdAt && id && !Number.isNaN(Date.parse(createdAt)) ? { createdAt, id } : undefined;
}

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load the activity log. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    requireOwner({ request, context });
    const { services, site } = context.get(appContext);
    const before = parseCursor(queryText(new URL(request.url), "before"));
    const { entries, next } = await services.audit.listPage(before);
    const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: site.timeZone });
    return {
      entries: entries.map((entry) => ({
        id: entry.id,
        createdAt: entry.createdAt,
        when: when.format(new Date(entry.createdAt)),
        who: entry.actorLabel,
        // A settings change is the changed fields' names: read as words, in place of the label and detail.
        ...(entry.action === "settings-changed"
          ? { what: describeSettingsChange(entry.detail), detail: "" }
          : { what: ACTION_LABELS[entry.action] ?? entry.action, detail: entry.detail }),
      })),
      next: next ? `${next.createdAt}~${next.id}` : undefined,
      first: before === undefined,
    };
  },
);

export default function Activity({ loaderData }: Route.ComponentProps) {
  const { entries, next, first } = loaderData;
  return (
    <>
      <title>Activity log · Admin</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Activity log</h1>
        <Link to="/admin/settings" className={textLinkStyles}>
          Back to Settings
        </Link>
      </div>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Sign-ins, account, settings and publishing changes from the last 180 days, newest first.
      </p>
      {entries.length === 0 ? (
        <p className="mt-6">No activity yet.</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
          <table className="admin-stack w-full text-left text-sm">
            <thead className="border-b border-slate-200 dark:border-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  When
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Who
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  What
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                  <td className="px-4 py-3 whitespace-nowrap">
                    <time dateTime={entry.createdAt}>{entry.when}</time>
                  </td>
                  <td className="px-4 py-3">{entry.who}</td>
                  <td className="px-4 py-3">
                    {entry.what}
                    {entry.detail ? ` ${entry.detail}` : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Activity pages" className="mt-6 flex gap-4">
        {first ? null : (
          <Link to="/admin/settings/activity" className={textLinkStyles}>
            Newest
          </Link>
        )}
        {next ? (
          <Link to={`/admin/settings/activity?${new URLSearchParams({ before: next })}`} className={textLinkStyles}>
            Older
          </Link>
        ) : null}
      </nav>
    </>
  );
}
