import { data, Link, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { EmailServerPanel, TestEmailPanel } from "~/components/admin/email-server-panels";
import { Notice } from "~/components/admin/panel";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { textLinkStyles } from "~/components/ui/styles";
import { requireOwner } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/email-settings";

const LOAD_FAILED_MESSAGE = "Failed to load the email settings. Please try again.";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    const owner = requireOwner({ request, context });
    const { services } = context.get(appContext);
    const server = await services.email.describe();
    const flash = await takeFlash(request);
    return data({ server, writerEmail: owner.email, notice: flash.message }, { headers: flash.headers });
  },
);

/**
 * Settings → Email: the mail server and "Send a test email", each form posting to its child
 * route (email-settings-save.tsx, email-settings-test.tsx), whose refusal renders this page.
 */
export default function EmailSettings({ loaderData }: Route.ComponentProps) {
  const { server, writerEmail, notice } = loaderData;
  const busy = useNavigation().state === "submitting";
  const saved = useRoute("routes/admin/email-settings-save")?.actionData;
  const tested = useRoute("routes/admin/email-settings-test")?.actionData;
  return (
    <>
      <title>Email · Admin</title>
      <p className="text-sm">
        <Link to="/admin/settings" className={textLinkStyles}>
          Back to settings
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">Email</h1>
      <p className="mt-1 max-w-2xl text-slate-600 dark:text-slate-400">
        The blog sends subscription confirmations, new posts to subscribers, comment notices, invitations and password
        resets through your mail server.
      </p>
      <div className="mt-6 max-w-2xl space-y-6">
        <Notice message={saved || tested ? undefined : notice} />
        <EmailServerPanel key={JSON.stringify(server)} server={server} result={saved} busy={busy} />
        <TestEmailPanel server={server} writerEmail={writerEmail} result={tested} busy={busy} />
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
