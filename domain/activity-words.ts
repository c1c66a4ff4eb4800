import type { FediverseSettings } from "./fediverse.ts";
import type { SiteSettings } from "./site-settings.ts";

/**
 * Each setting the audit log names (a "settings-changed" entry's detail is the changed keys,
 * comma-separated; the fediverse's are prefixed "fediverse "), as the activity log reads it.
 * Typed over both schemas, so a new setting without its words fails the typecheck.
 */
const SITE_SETTING_WORDS: Record<keyof SiteSettings, string> = {
  title: "the site title",
  description: "the site description",
  aboutUrl: "the About link",
  sourceUrl: "the source code link",
  postsPerPage: "the number of posts per page",
  timeZone: "the time zone",
  footerText: "the footer text",
  homeHeadline: "the home page headline",
  homeIntroduction: "the home page introduction",
  emailFromName: "the email sender name",
  emailReplyTo: "the email Reply-To address",
  accentColor: "the accent colour",
  bodyTypeface: "the typeface",
  logo: "the logo",
  siteIcon: "the site icon",
  navigation: "the menus",
};

const FEDIVERSE_SETTING_WORDS: Record<keyof FediverseSettings, string> = {
  handle: "the fediverse handle",
  approveFollowsByHand: "whether followers are approved by hand",
  blocked: "the fediverse blocked list",
};

const SETTING_WORDS = new Map<string, string>([
  ...Object.entries(SITE_SETTING_WORDS),
  ...Object.entries(FEDIVERSE_SETTING_WORDS).map(([key, words]): [string, string] => [`fediverse ${key}`, words]),
]);

/** A key no table names (a setting added later, or an old entry): its camelCase spelled out as words. */
function spellOut(key: string): string {
  return `the ${key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()}`;
}

function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** A settings change in words: "footerText, accentColor" reads "Changed the footer text and the accent colour". */
export function describeSettingsChange(detail: string): string {
  const keys = detail
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  if (keys.length === 0) return "Saved the settings without changing any";
  const words = keys.map((key) => SETTING_WORDS.get(key) ?? spellOut(key));
  return `Changed ${joinWords(words)}`;
}
