import { z } from "./zod.ts";
import { EMAIL_MAX } from "./account.ts";
import { defineForm, formText } from "./forms.ts";
import { navigationSchema } from "./navigation.ts";
import { DEFAULT_HOME_HEADLINE, DEFAULT_HOME_INTRODUCTION } from "./site-defaults.ts";
import {
  accentContrastProblem,
  BODY_TYPEFACE_NAMES,
  HEX_COLOR_PATTERN,
  LOGO_VALUE_PATTERN,
  SITE_ICON_VALUE_PATTERN,
} from "./site-look.ts";

export const SITE_TITLE_MAX = 80;
export const SITE_DESCRIPTION_MAX = 300;
export const FOOTER_TEXT_MAX = 300;
export const POSTS_PER_PAGE_MAX = 100;
export const EMAIL_FROM_NAME_MAX = 80;
export const HOME_HEADLINE_MAX = 120;
export const HOME_INTRODUCTION_MAX = 1000;

export {
  DEFAULT_FOOTER_TEXT,
  DEFAULT_HOME_HEADLINE,
  DEFAULT_HOME_INTRODUCTION,
  DEFAULT_SITE_DESCRIPTION,
  DEFAULT_SITE_TITLE,
} from "./site-defaults.ts";

/**
 * The time zones the settings form offers to pick from (its datalist): the runtime's IANA names,
 * UTC first. Any name the runtime accepts is still valid (`isTimeZone`), such as an old alias.
 */
export function timeZoneNames(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((name) => name !== "UTC")];
}

/** Whether this runtime knows the IANA zone; the browser and Node both answer through Intl. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const linkField = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `Please enter the ${label} link`)
    .pipe(z.url({ protocol: /^https?$/, message: `The ${label} link must start with http:// or https://` }));

/** The one schema for the site's settings: the form, the action and what the database holds. */
export const siteSettingsSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, "Please enter a site title")
    .max(SITE_TITLE_MAX, `Site title must be at most ${SITE_TITLE_MAX} characters`),
  description: z
    .string()
    .trim()
    .max(SITE_DESCRIPTION_MAX, `Description must be at most ${SITE_DESCRIPTION_MAX} characters`),
  aboutUrl: linkField("About"),
  sourceUrl: linkField("source code"),
  postsPerPage: z.coerce
    .number({ error: `Posts per page must be a whole number from 1 to ${POSTS_PER_PAGE_MAX}` })
    .int(`Posts per page must be a whole number from 1 to ${POSTS_PER_PAGE_MAX}`)
    .min(1, `Posts per page must be a whole number from 1 to ${POSTS_PER_PAGE_MAX}`)
    .max(POSTS_PER_PAGE_MAX, `Posts per page must be a whole number from 1 to ${POSTS_PER_PAGE_MAX}`),
  timeZone: z
    .string()
    .trim()
    .refine(isTimeZone, "Please choose a time zone from the list, such as Europe/Paris or UTC"),
  footerText: z.string().trim().max(FOOTER_TEXT_MAX, `Footer text must be at most ${FOOTER_TEXT_MAX} characters`),
  // The home page's welcome block: plain text, and Markdown rendered on the server; empty hides each.
  homeHeadline: z.string().trim().max(HOME_HEADLINE_MAX, `Headline must be at most ${HOME_HEADLINE_MAX} characters`),
  homeIntroduction: z
    .string()
    .trim()
    .max(
      HOME_INTRODUCTION_MAX,
      `Introduction must be at most ${HOME_INTRODUCTION_MAX.toLocaleString("en-US")} characters`,
    ),
  // Blank means the site's title, so a new title shows in the next email too.
  emailFromName: z
    .string()
    .trim()
    .max(EMAIL_FROM_NAME_MAX, `Sender name must be at most ${EMAIL_FROM_NAME_MAX} characters`)
    // nodemailer encodes the name, but a name that could end the header is refused outright.
    .refine((value) => !/[\r\n<>"]/.test(value), 'Sender name cannot hold line breaks, < > or "'),
  emailReplyTo: z
    .string()
    .trim()
    .refine(
      (value) => value === "" || (value.length <= EMAIL_MAX && z.email().safeParse(value).success),
      "Reply-To must be a valid email address",
    ),
  // Blank means the product's own accent; a colour is checked in both themes (docs/decisions/0017).
  accentColor: z
    .string()
    .trim()
    .refine((value) => value === "" || HEX_COLOR_PATTERN.test(value), "Accent colour must look like #1d6b3a")
    .transform((value) => value.toLowerCase())
    .superRefine((value, context) => {
      const problem = value === "" || !HEX_COLOR_PATTERN.test(value) ? undefined : accentContrastProblem(value);
      if (problem) context.addIssue({ code: "custom", message: problem });
    }),
  bodyTypeface: z.enum(BODY_TYPEFACE_NAMES, { error: "Please choose one of the typefaces offered" }),
  // Uploaded on their own forms (admin/settings-images.tsx); the settings form carries them unchanged.
  logo: z.string().refine((value) => value === "" || LOGO_VALUE_PATTERN.test(value), "Unknown logo"),
  siteIcon: z.string().refine((value) => value === "" || SITE_ICON_VALUE_PATTERN.test(value), "Unknown site icon"),
  // Edited on /admin/navigation; null while the owner keeps the default menus (domain/navigation.ts).
  navigation: navigationSchema.nullable().default(null),
});

/** The site's settings as saved (or defaulted); the request context adds the address it answers on. */
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** Who every email says it is from (MAIL_FROM gives the address) and where replies go. */
export function emailSender(settings: Pick<SiteSettings, "title" | "emailFromName" | "emailReplyTo">): {
  name: string;
  replyTo: string | undefined;
} {
  return { name: settings.emailFromName || settings.title, replyTo: settings.emailReplyTo || undefined };
}

/** What the settings form edits: the logo and the icon have their own upload forms, the menus their screen. */
export const siteSettingsFormSchema = siteSettingsSchema.omit({ logo: true, siteIcon: true, navigation: true });

/**
 * What a save of the settings form (or a script) hands the service. The logo, the icon and the
 * menus are saved by their own forms; a save of this one keeps what is stored for them.
 */
export type SiteSettingsFormInput = z.infer<typeof siteSettingsFormSchema>;

export const siteSettingsForm = defineForm({
  fields: [
    "title",
    "description",
    "aboutUrl",
    "sourceUrl",
    "postsPerPage",
    "timeZone",
    "footerText",
    "homeHeadline",
    "homeIntroduction",
    "emailFromName",
    "emailReplyTo",
    "accentColor",
    "bodyTypeface",
  ],
  read: (formData: FormData) => ({
    title: formText(formData, "title"),
    description: formText(formData, "description"),
    aboutUrl: formText(formData, "aboutUrl"),
    sourceUrl: formText(formData, "sourceUrl"),
    postsPerPage: formText(formData, "postsPerPage"),
    timeZone: formText(formData, "timeZone"),
    footerText: formText(formData, "footerText"),
    // Likewise a post without the home page's fields keeps its product words; an empty field hides them.
    homeHeadline: formData.has("homeHeadline") ? formText(formData, "homeHeadline") : DEFAULT_HOME_HEADLINE,
    homeIntroduction: formData.has("homeIntroduction")
      ? formText(formData, "homeIntroduction")
      : DEFAULT_HOME_INTRODUCTION,
    emailFromName: formText(formData, "emailFromName"),
    emailReplyTo: formText(formData, "emailReplyTo"),
    accentColor: formText(formData, "accentColor"),
    // A post without the field (a script written before it existed) keeps the product's own face.
    bodyTypeface: formText(formData, "bodyTypeface") || "sans",
  }),
  schema: siteSettingsFormSchema,
});
