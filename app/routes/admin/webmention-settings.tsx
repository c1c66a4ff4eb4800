import { redirect } from "react-router";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { SettingsSubpage } from "~/components/admin/settings-subpage";
import { CheckboxField } from "~/components/ui/field";
import { requireAdmin } from "~/lib/auth.server";
import { useValidatedForm } from "~/lib/forms";
import { parseSubmission, perform } from "~/lib/forms.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { webmentionSettingsForm } from "#domain/webmention.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/webmention-settings";

const LOAD_FAILED_MESSAGE = "Failed to load Webmention settings. Please try again.";
const SAVE_FAILED_MESSAGE = "Failed to save Webmention settings. Please try again.";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const settings = await context.get(appContext).services.webmention.settings();
    return { settings, saved: new URL(request.url).searchParams.has("saved") };
  },
);

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const submission = await parseSubmission(request, webmentionSettingsForm);
  if (!submission.ok) return submission.response;
  const saved = await perform(
    context,
    () => context.get(appContext).services.webmention.saveSettings(submission.input),
    { values: submission.values, messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE } },
  );
  if (!saved.ok) return saved.response;
  return redirect("/admin/comments/webmention?saved", 303);
}

export default function WebmentionSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, saved } = loaderData;
  const form = useValidatedForm(webmentionSettingsForm, { id: "webmention", result: actionData });
  const values = actionData?.values ?? settings;
  return (
    <SettingsSubpage
      title="Webmention settings"
      back={{ to: "/admin/comments", label: "Back to comments" }}
      savedNotice={saved && !actionData ? "Webmention settings saved." : undefined}
      stored={settings}
      form={form}
    >
      <CheckboxField
        {...form.field("send")}
        label="Tell the pages a post links"
        hint="When a post is published or changed, each site it links that takes Webmentions hears of it. A post can still keep quiet in the editor."
        defaultChecked={values.send}
        className="mt-1 h-4 w-4 accent-indigo-600"
      />
      <CheckboxField
        {...form.field("receive")}
        label="Take mentions from other sites"
        hint="Replies wait among the comments for moderation; likes, reposts, bookmarks and mentions are counted in each post's editor."
        defaultChecked={values.receive}
        className="mt-1 h-4 w-4 accent-indigo-600"
      />
    </SettingsSubpage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
