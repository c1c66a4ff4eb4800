import { redirect } from "react-router";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { SettingsSubpage } from "~/components/admin/settings-subpage";
import { CheckboxField, TextField } from "~/components/ui/field";
import { inputStyles } from "~/components/ui/styles";
import { requireAdmin } from "~/lib/auth.server";
import { useValidatedForm } from "~/lib/forms";
import { parseSubmission, perform } from "~/lib/forms.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { analyticsSettingsForm, RETENTION_DAYS_MAX } from "#domain/analytics.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/analytics-settings";

const LOAD_FAILED_MESSAGE = "Failed to load analytics settings. Please try again.";
const SAVE_FAILED_MESSAGE = "Failed to save analytics settings. Please try again.";

/** Authorised like the comment settings: any writer may change how the blog counts its readers. */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const settings = await context.get(appContext).services.analytics.settings();
    return { settings, saved: new URL(request.url).searchParams.has("saved") };
  },
);

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const submission = await parseSubmission(request, analyticsSettingsForm);
  if (!submission.ok) return submission.response;
  const saved = await perform(
    context,
    () => context.get(appContext).services.analytics.saveSettings(submission.input),
    { values: submission.values, messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE } },
  );
  if (!saved.ok) return saved.response;
  return redirect("/admin/analytics/settings?saved", 303);
}

export default function AnalyticsSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, saved } = loaderData;
  const form = useValidatedForm(analyticsSettingsForm, { id: "analytics-settings", result: actionData });
  const values = actionData?.values ?? { enabled: settings.enabled, retentionDays: String(settings.retentionDays) };
  return (
    <SettingsSubpage
      title="Analytics settings"
      back={{ to: "/admin/analytics", label: "Back to analytics" }}
      savedNotice={saved && !actionData ? "Analytics settings saved." : undefined}
      stored={settings}
      form={form}
    >
      <CheckboxField
        {...form.field("enabled")}
        label="Count readers"
        hint="Page views are counted without cookies and without storing addresses. Turned off, nothing is counted and the figures so far stay."
        defaultChecked={values.enabled}
        className="mt-1 h-4 w-4 accent-indigo-600"
      />
      <TextField
        {...form.field("retentionDays")}
        label="Keep single page views for (days)"
        hint="After that only the daily totals remain, which are kept for good. The privacy page says 30 days by default."
        type="number"
        inputMode="numeric"
        required
        min={1}
        max={RETENTION_DAYS_MAX}
        defaultValue={values.retentionDays}
        className={`${inputStyles} max-w-40`}
      />
    </SettingsSubpage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
