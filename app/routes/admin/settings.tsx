import { data, Form, Link, Outlet, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { Notice } from "~/components/admin/panel";
import { LookFields, SiteImageForms } from "~/components/admin/settings-look";
import { FormError, TextAreaField, TextField } from "~/components/ui/field";
import { buttonStyles, textLinkStyles } from "~/components/ui/styles";
import { actorOf, requireOwner } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { useValidatedForm } from "~/lib/forms";
import { parseSubmission, perform } from "~/lib/forms.server";
import {
  EMAIL_FROM_NAME_MAX,
  FOOTER_TEXT_MAX,
  HOME_HEADLINE_MAX,
  HOME_INTRODUCTION_MAX,
  POSTS_PER_PAGE_MAX,
  SITE_DESCRIPTION_MAX,
  SITE_TITLE_MAX,
  siteSettingsForm,
  timeZoneNames,
} from "#domain/site-settings.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/settings";

const SAVE_FAILED_MESSAGE = "The settings could not be saved. Please try again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner({ request, context });
  const { siteUrl: _siteUrl, ...settings } = context.get(appContext).site;
  // The logo and icon forms answer with a redirect here and a notice (settings-images.tsx).
  const flash = await takeFlash(request);
  // From the server's list, so the page the browser hydrates offers the same names it was sent with.
  return data({ settings, notice: flash.message, timeZones: timeZoneNames() }, { headers: flash.headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const submission = await parseSubmission(request, siteSettingsForm);
  if (!submission.ok) return submission.response;
  const { siteSettings } = context.get(appContext).services;
  // The logo, the icon and the menus keep what their own forms saved: the service reads them afresh.
  const saved = await perform(context, () => siteSettings.update(submission.input, actorOf(owner)), {
    values: submission.values,
    messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE },
  });
  if (!saved.ok) return saved.response;
  return { values: submission.values, errors: {}, saved: true };
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const form = useValidatedForm(siteSettingsForm, { id: "settings", result: actionData });
  const values = actionData?.values ?? {
    ...loaderData.settings,
    postsPerPage: String(loaderData.settings.postsPerPage),
  };
  const saved = actionData && "saved" in actionData && actionData.saved;
  const images = useRoute("routes/admin/settings-images")?.actionData;
  return (
    <>
      <title>Settings · Admin</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Settings</h1>
        <div className="flex flex-wrap gap-4">
          <Link to="/admin/settings/email" className={textLinkStyles}>
            Email
          </Link>
          <Link to="/admin/settings/activity" className={textLinkStyles}>
            Activity log
          </Link>
        </div>
      </div>
      <Form method="post" {...form.props} className="mt-6 max-w-2xl space-y-5">
        <Notice message={saved ? "Settings saved. The site shows them now." : loaderData.notice} />
        <FormError message={form.formError} />
        <TextField
          {...form.field("title")}
          label="Site title"
          hint="Shown in the welcome block and in every page's title."
          defaultValue={values.title}
          maxLength={SITE_TITLE_MAX}
        />
        <TextAreaField
          {...form.field("description")}
          label="Description"
          hint="The home page's description for search engines."
          rows={2}
          defaultValue={values.description}
          maxLength={SITE_DESCRIPTION_MAX}
        />
        <TextField {...form.field("aboutUrl")} label="About link" type="url" defaultValue={values.aboutUrl} />
        <TextField {...form.field("sourceUrl")} label="Source code link" type="url" defaultValue={values.sourceUrl} />
        <TextField
          {...form.field("postsPerPage")}
          label="Posts per page"
          hint={`From 1 to ${POSTS_PER_PAGE_MAX}.`}
          type="number"
          inputMode="numeric"
          min={1}
          max={POSTS_PER_PAGE_MAX}
          defaultValue={values.postsPerPage}
        />
        <TextField
          {...form.field("timeZone")}
          label="Time zone"
          hint="For dates on the site. Type a city or region to search the list, e.g. Paris or UTC."
          defaultValue={values.timeZone}
          list="time-zones"
          autoComplete="off"
        />
        <datalist id="time-zones">
          {loaderData.timeZones.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <TextAreaField
          {...form.field("footerText")}
          label="Footer text"
          rows={2}
          defaultValue={values.footerText}
          maxLength={FOOTER_TEXT_MAX}
        />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold">Home page</legend>
          <TextField
            {...form.field("homeHeadline")}
            label="Headline"
            hint="The welcome block's heading. Leave empty to hide it."
            defaultValue={values.homeHeadline}
            maxLength={HOME_HEADLINE_MAX}
          />
          <TextAreaField
            {...form.field("homeIntroduction")}
            label="Introduction"
            hint="A few words under the headline, in Markdown (links, *emphasis*, paragraphs). Leave empty to hide it."
            rows={3}
            defaultValue={values.homeIntroduction}
            maxLength={HOME_INTRODUCTION_MAX}
          />
        </fieldset>
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold">Email</legend>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Newsletters and confirmations are sent from the address set on the{" "}
            <Link to="/admin/settings/email" className={textLinkStyles}>
              Email screen
            </Link>{" "}
            (or MAIL_FROM), through your mail server.
          </p>
          <TextField
            {...form.field("emailFromName")}
            label="Sender name"
            hint="Shown beside that address. Leave empty to use the site title."
            defaultValue={values.emailFromName}
            maxLength={EMAIL_FROM_NAME_MAX}
            placeholder={loaderData.settings.title}
          />
          <TextField
            {...form.field("emailReplyTo")}
            label="Reply-To"
            hint="Where replies go. Leave empty for the From address."
            type="email"
            defaultValue={values.emailReplyTo}
          />
        </fieldset>
        <LookFields accent={form.field("accentColor")} typeface={form.field("bodyTypeface")} values={values} />
        <button type="submit" disabled={saving} className={buttonStyles.primary}>
          {saving ? "Saving…" : "Save settings"}
        </button>
      </Form>
      <SiteImageForms logo={loaderData.settings.logo} siteIcon={loaderData.settings.siteIcon} result={images} />
      <Outlet />
    </>
  );
}
