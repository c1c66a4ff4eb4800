import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";

/** Cookie-free analytics (docs/decisions/0016-analytics.md): what both the server and the admin need. */

export const RETENTION_DAYS_MAX = 3650;
const retentionMessage = `Enter a whole number of days from 1 to ${RETENTION_DAYS_MAX.toLocaleString("en-US")}`;

/** Stored under the settings key `analytics`; the settings form sends the same shape. */
export const analyticsSettingsSchema = z.object({
  enabled: z.boolean().default(true),
  /** How long raw events are kept; the daily and hourly figures are kept for good. */
  retentionDays: z.coerce
    .number({ error: retentionMessage })
    .int(retentionMessage)
    .min(1, retentionMessage)
    .max(RETENTION_DAYS_MAX, retentionMessage)
    .default(30),
});

export type AnalyticsSettings = z.infer<typeof analyticsSettingsSchema>;

export const ANALYTICS_SETTINGS_KEY = "analytics";
export const DEFAULT_ANALYTICS_SETTINGS: AnalyticsSettings = { enabled: true, retentionDays: 30 };

export function analyticsSettingsFormValues(formData: FormData) {
  return { enabled: formData.get("enabled") === "on", retentionDays: formText(formData, "retentionDays").trim() };
}

export const analyticsSettingsForm = defineForm({
  fields: ["enabled", "retentionDays"],
  read: analyticsSettingsFormValues,
  schema: analyticsSettingsSchema,
});

export { BEACON_BODY_MAX, BEACON_PATH } from "./analytics-beacon.ts";

/**
 * What the readers' script sends (app/lib/page-script.ts): the page's path with its query,
 * the referrer, the viewport's width, and `k: "nf"` from a not-found page.
 */
export const beaconBodySchema = z.object({
  p: z.string().startsWith("/").max(1024),
  r: z.string().max(1024).default(""),
  w: z.number().int().min(0).max(100_000).default(0),
  k: z.literal("nf").optional(),
});

export type BeaconBody = z.infer<typeof beaconBodySchema>;

export const ANALYTICS_KINDS = ["view", "not_found"] as const;
export type AnalyticsKind = (typeof ANALYTICS_KINDS)[number];

/** The rollups' dimensions: `analytics_daily.dimension`; `total` has the value ''. */
export const ANALYTICS_DIMENSIONS = [
  "total",
  "path",
  "source",
  "campaign",
  "browser",
  "os",
  "device",
  "screen",
  "country",
  "not_found",
] as const;
export type AnalyticsDimension = (typeof ANALYTICS_DIMENSIONS)[number];

export const SCREEN_CLASSES = ["small", "medium", "large"] as const;
export type ScreenClass = (typeof SCREEN_CLASSES)[number];

/** Viewport widths as the stylesheet breaks them: phones, tablets, the rest. */
export function screenClass(width: number): ScreenClass {
  if (width < 640) return "small";
  if (width < 1024) return "medium";
  return "large";
}

/**
 * Hosts named as a source, matched on the host and its parents ("news.google.com" → Google).
 * Short on purpose: the search engines and social sites that send readers to blogs; the rest
 * show as their host.
 */
const NAMED_SOURCES: Record<string, string> = {
  "google.com": "Google",
  "bing.com": "Bing",
  "duckduckgo.com": "DuckDuckGo",
  "search.yahoo.com": "Yahoo",
  "yandex.ru": "Yandex",
  "yandex.com": "Yandex",
  "baidu.com": "Baidu",
  "ecosia.org": "Ecosia",
  "search.brave.com": "Brave Search",
  "kagi.com": "Kagi",
  "startpage.com": "Startpage",
  "qwant.com": "Qwant",
  "facebook.com": "Facebook",
  "l.facebook.com": "Facebook",
  "lm.facebook.com": "Facebook",
  "instagram.com": "Instagram",
  "t.co": "Twitter",
  "twitter.com": "Twitter",
  "x.com": "Twitter",
  "linkedin.com": "LinkedIn",
  "lnkd.in": "LinkedIn",
  "reddit.com": "Reddit",
  "news.ycombinator.com": "Hacker News",
  "lobste.rs": "Lobsters",
  "bsky.app": "Bluesky",
  "threads.net": "Threads",
  "mastodon.social": "Mastodon",
  "mastodon.online": "Mastodon",
  "mstdn.social": "Mastodon",
  "fosstodon.org": "Mastodon",
  "hachyderm.io": "Mastodon",
  "infosec.exchange": "Mastodon",
  "youtube.com": "YouTube",
  "pinterest.com": "Pinterest",
  "github.com": "GitHub",
  "wikipedia.org": "Wikipedia",
  "feedly.com": "Feedly",
  "inoreader.com": "Inoreader",
  "newsblur.com": "NewsBlur",
  "substack.com": "Substack",
  "medium.com": "Medium",
};

/** Google answers from google.co.uk, google.de…: the second label names it. */
const NAMED_SEARCH_LABELS: Record<string, string> = { google: "Google", bing: "Bing", yandex: "Yandex" };

/** The referrer's host without `www.`, or null when there is none or it is this site. */
export function referrerHost(referrer: string, siteHost: string): string | null {
  if (!referrer) return null;
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  if (!host || host === siteHost.toLowerCase().replace(/^www\./, "")) return null;
  return host.slice(0, 253);
}

/** The source's name from the short list, or the host itself. */
export function nameSource(host: string): string {
  const labels = host.split(".");
  for (let start = 0; start < labels.length - 1; start += 1) {
    const name = NAMED_SOURCES[labels.slice(start).join(".")];
    if (name) return name;
  }
  for (let index = 0; index < labels.length - 1; index += 1) {
    const label = labels[index] ?? "";
    const rest = labels.slice(index + 1);
    const countryLike = rest.every((part) => part.length <= 3) && rest.length <= 2;
    const name = NAMED_SEARCH_LABELS[label];
    if (name && countryLike) return name;
  }
  return host;
}

const PATH_MAX = 512;

/**
 * A beacon's `p` as stored: the path without its query or fragment, without control characters
 * or lone surrogates (PostgreSQL refuses both in text), at most 512 characters; and the query,
 * for its utm parameters. Split by hand: `new URL` reads "/\\host" as another host.
 */
export function splitBeaconPath(sent: string): { path: string; search: string } {
  const clean = sent.toWellFormed().replace(/\p{Cc}/gu, "");
  const withoutFragment = clean.split("#", 1)[0] ?? "";
  const query = withoutFragment.indexOf("?");
  const path = query < 0 ? withoutFragment : withoutFragment.slice(0, query);
  return { path: (path || "/").slice(0, PATH_MAX), search: query < 0 ? "" : withoutFragment.slice(query) };
}

export interface Campaign {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

const UTM_MAX = 100;

function utmValue(params: URLSearchParams, name: string): string | null {
  const value = (params.get(name) ?? "")
    .toWellFormed()
    .replace(/\p{Cc}/gu, "")
    .trim();
  return value ? value.slice(0, UTM_MAX) : null;
}

/** The `utm_*` parameters of a path such as `/post?utm_source=newsletter`. */
export function readCampaign(search: string): Campaign {
  const params = new URLSearchParams(search);
  return {
    utmSource: utmValue(params, "utm_source"),
    utmMedium: utmValue(params, "utm_medium"),
    utmCampaign: utmValue(params, "utm_campaign"),
  };
}

/**
 * The day ('YYYY-MM-DD') and hour ('YYYY-MM-DDTHH') of an instant in a time zone: what the
 * analytics count by, so a writer's "today" is their own.
 */
export function dayAndHourIn(instant: Date, timeZone: string): { day: string; hour: string } {
  const parts = hourFormat(timeZone).formatToParts(instant);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? "00";
  const day = `${part("year")}-${part("month")}-${part("day")}`;
  return { day, hour: `${day}T${part("hour")}` };
}

/** Making a formatter costs a hundred times more than using one: every beacon asks. */
const hourFormats = new Map<string, Intl.DateTimeFormat>();

function hourFormat(timeZone: string): Intl.DateTimeFormat {
  let format = hourFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
    });
    hourFormats.set(timeZone, format);
  }
  return format;
}
