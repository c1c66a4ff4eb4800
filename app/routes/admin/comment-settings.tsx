import { redirect } from "react-router";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { SettingsSubpage } from "~/components/admin/settings-subpage";
import { CheckboxField, SelectField, TextAreaField, TextField } from "~/components/ui/field";
import { inputStyles } from "~/components/ui/styles";
import { requireAdmin } from "~/lib/auth.server";
import { useValidatedForm } from "~/lib/forms";
import { parseSubmission, perform } from "~/lib/forms.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { BLOCKLIST_MAX, CLOSE_AFTER_DAYS_MAX, commentSettingsForm } from "#domain/comment-settings.ts";
import { WRITER_EMAIL_MODE_LABELS, WRITER_EMAIL_MODES } from "#domain/comment-emails.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/comment-settings";

const LOAD_FAILED_MESSAGE = "Failed to load comment settings. Please try again.";
const SAVE_FAILED_MESSAGE = "Failed to save comment settings. Please try again.";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const [settings, emailSettings, emailOn] = await Promise.all([
      services.comments.readSettings(),
      services.commentEmails.readSettings(),
      services.commentEmails.isOpen(),
    ]);
    return {
      settings,
      writerEmails: emailOn ? emailSettings.writerEmails : undefined,
      saved: new URL(request.url).searchParams.has("saved"),
    };
  },
);

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const submission = await parseSubmission(request, commentSettingsForm);
  if (!submission.ok) return submission.response;
  const { services } = context.get(appContext);
  const { writerEmails, ...policy } = submission.input;
  const save = async () => {
    await services.comments.saveSettings(policy);
    if (writerEmails && (await services.commentEmails.isOpen()))
      await services.commentEmails.saveSettings({ writerEmails });
  };
  const saved = await perform(context, save, {
    values: submission.values,
    messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE },
  });
  if (!saved.ok) return saved.response;
  return redirect("/admin/comments/settings?saved", 303);
}

export default function CommentSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, writerEmails, saved } = loaderData;
  const form = useValidatedForm(commentSettingsForm, { id: "settings", result: actionData });
  const values = actionData?.values ?? {
    holdAll: settings.holdAll,
    blocklist: settings.blocklist,
    closeAfterDays: settings.closeAfterDays === null ? "" : String(settings.closeAfterDays),
    writerEmails,
  };
  return (
    <SettingsSubpage
      title="Comment settings"
      back={{ to: "/admin/comments", label: "Back to comments" }}
      savedNotice={saved && !actionData ? "Comment settings saved." : undefined}
      stored={{ settings, writerEmails }}
      form={form}
    >
      <CheckboxField
        {...form.field("holdAll")}
        label="Hold every comment for moderation"
        hint="Nothing appears until you approve it."
        defaultChecked={values.holdAll}
        className="mt-1 h-4 w-4 accent-indigo-600"
      />
      <TextAreaField
        {...form.field("blocklist")}
        label="Blocklist"
        hint="Words, addresses or domains, one a line. A comment whose name or text contains one waits for moderation. Comments with more than 2 links always do."
        rows={6}
        maxLength={BLOCKLIST_MAX}
        defaultValue={values.blocklist}
      />
      <TextField
        {...form.field("closeAfterDays")}
        label="Close comments on posts older than (days)"
        hint="Leave empty to keep comments open. Each post can also close its own comments in the editor."
        type="number"
        inputMode="numeric"
        min={1}
        max={CLOSE_AFTER_DAYS_MAX}
        defaultValue={values.closeAfterDays}
        className={`${inputStyles} max-w-40`}
      />
      {writerEmails ? (
        <SelectField
          {...form.field("writerEmails")}
          label="Email me about new comments"
          hint="Held comments too, with a link to moderate them. The digest comes once a day, after midnight in the blog's time zone."
          options={WRITER_EMAIL_MODES.map((mode) => ({ value: mode, label: WRITER_EMAIL_MODE_LABELS[mode] }))}
          defaultValue={values.writerEmails}
        />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Email about new comments and replies starts once email is set up (Settings → Email).
        </p>
      )}
    </SettingsSubpage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
