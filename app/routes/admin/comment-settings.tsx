import { Form, Link, redirect, useNavigation } from "react-router";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { CheckboxField, Field, FormError } from "~/components/ui/field";
import { buttonStyles, inputStyles } from "~/components/ui/styles";
import { requireAdmin } from "~/lib/auth.server";
import { useValidatedForm } from "~/lib/forms";
import { parseSubmission, perform } from "~/lib/forms.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { BLOCKLIST_MAX, CLOSE_AFTER_DAYS_MAX, commentSettingsForm } from "#domain/comment-settings.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/comment-settings";

const LOAD_FAILED_MESSAGE = "Failed to load comment settings. Please try again.";
const SAVE_FAILED_MESSAGE = "Failed to save comment settings. Please try again.";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const settings = await context.get(appContext).services.comments.readSettings();
    return { settings, saved: new URL(request.url).searchParams.has("saved") };
  },
);

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const submission = await parseSubmission(request, commentSettingsForm);
  if (!submission.ok) return submission.response;
  const saved = await perform(context, () => context.get(appContext).services.comments.saveSettings(submission.input), {
    values: submission.values,
    messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE },
  });
  if (!saved.ok) return saved.response;
  return redirect("/admin/comments/settings?saved", 303);
}

export default function CommentSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, saved } = loaderData;
  const navigation = useNavigation();
  const form = useValidatedForm(commentSettingsForm, { id: "settings", result: actionData });
  const values = actionData?.values ?? {
    holdAll: settings.holdAll,
    blocklist: settings.blocklist,
    closeAfterDays: settings.closeAfterDays === null ? "" : String(settings.closeAfterDays),
  };
  return (
    <>
      <title>Comment settings · Admin</title>
      <p className="text-sm">
        <Link to="/admin/comments" className="font-medium text-indigo-700 underline dark:text-indigo-300">
          Back to comments
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">Comment settings</h1>
      {saved && !actionData ? (
        <p
          role="status"
          className="mt-6 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
        >
          Comment settings saved.
        </p>
      ) : null}
      {/* Keyed by what is stored, so the fields show the saved values after each save. */}
      <Form
        key={JSON.stringify(settings)}
        method="post"
        {...form.props}
        className="mt-6 max-w-2xl space-y-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <FormError message={form.formError} />
        <CheckboxField
          {...form.field("holdAll")}
          label="Hold every comment for moderation"
          hint="Nothing appears until you approve it."
        >
          {(control) => (
            <input
              {...control}
              name="holdAll"
              type="checkbox"
              defaultChecked={values.holdAll}
              className="mt-1 h-4 w-4 accent-indigo-600"
            />
          )}
        </CheckboxField>
        <Field
          {...form.field("blocklist")}
          label="Blocklist"
          hint="Words, addresses or domains, one a line. A comment whose name or text contains one waits for moderation. Comments with more than 2 links always do."
        >
          {(control) => (
            <textarea
              {...control}
              name="blocklist"
              rows={6}
              maxLength={BLOCKLIST_MAX}
              defaultValue={values.blocklist}
              className={inputStyles}
            />
          )}
        </Field>
        <Field
          {...form.field("closeAfterDays")}
          label="Close comments on posts older than (days)"
          hint="Leave empty to keep comments open. Each post can also close its own comments in the editor."
        >
          {(control) => (
            <input
              {...control}
              name="closeAfterDays"
              type="number"
              inputMode="numeric"
              min={1}
              max={CLOSE_AFTER_DAYS_MAX}
              defaultValue={values.closeAfterDays}
              className={`${inputStyles} max-w-40`}
            />
          )}
        </Field>
        <button type="submit" disabled={navigation.state === "submitting"} className={buttonStyles.primary}>
          Save settings
        </button>
      </Form>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
