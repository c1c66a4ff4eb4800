import Bowser from "bowser";
import { isbot } from "isbot";

export interface ReaderAgent {
  browser: string;
  os: string;
  device: "desktop" | "mobile" | "tablet";
}

const NAME_MAX = 40;

/**
 * What the rollups keep of a user agent: browser, operating system, device class. Null for a
 * crawler (isbot) or anything without a browser's shape (Mozilla/5.0, an engine and a browser
 * bowser knows), which is how a script or a link preview is left out (docs/decisions/0016).
 */
export function describeReaderAgent(userAgent: string): ReaderAgent | null {
  if (!userAgent.startsWith("Mozilla/5.0 ") || userAgent.length > 512 || isbot(userAgent)) return null;
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ?? "";
  if (!browser || !parsed.engine.name) return null;
  const type = parsed.platform.type;
  return {
    browser: browser.slice(0, NAME_MAX),
    os: (parsed.os.name ?? "Other").slice(0, NAME_MAX) || "Other",
    device: type === "mobile" || type === "tablet" ? type : "desktop",
  };
}

/** Feed readers named in the Feeds chart, matched in their user agent; others are "other". */
const FEED_FETCHERS: readonly [RegExp, string][] = [
  [/feedly/i, "Feedly"],
  [/inoreader/i, "Inoreader"],
  [/newsblur/i, "NewsBlur"],
  [/feedbin/i, "Feedbin"],
  [/theoldreader/i, "The Old Reader"],
  [/netnewswire/i, "NetNewsWire"],
  [/reeder/i, "Reeder"],
  [/miniflux/i, "Miniflux"],
  [/freshrss/i, "FreshRSS"],
  [/tiny tiny rss/i, "Tiny Tiny RSS"],
  [/feedspot/i, "Feedspot"],
  [/feeder\b/i, "Feeder"],
  [/newsify/i, "Newsify"],
  [/thunderbird/i, "Thunderbird"],
  [/readwise/i, "Readwise"],
  [/unread/i, "Unread"],
];

export interface FeedFetcher {
  name: string;
  /** The subscribers an aggregator says it fetches for ("… 42 subscribers"); null when it says none. */
  subscribers: number | null;
}

/**
 * The feed reader behind a fetch of a feed, or null for a crawler that is not one (a search
 * engine reading the feed for links). A fetcher we cannot name but that says it reads feeds,
 * or looks like a browser, is "other".
 */
export function describeFeedFetcher(userAgent: string): FeedFetcher | null {
  if (!userAgent || userAgent.length > 512) return null;
  const match = /(\d{1,9})\s+(?:subscribers|readers)\b/i.exec(userAgent);
  const subscribers = match ? Number(match[1]) : null;
  const named = FEED_FETCHERS.find(([pattern]) => pattern.test(userAgent));
  if (named) return { name: named[1], subscribers };
  if (/feed|rss|atom|reader|subscriber/i.test(userAgent) || !isbot(userAgent)) return { name: "other", subscribers };
  return null;
}
