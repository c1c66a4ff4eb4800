import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import {
  ANALYTICS_SETTINGS_KEY,
  type AnalyticsSettings,
  analyticsSettingsSchema,
  type BeaconBody,
  DEFAULT_ANALYTICS_SETTINGS,
  dayAndHourIn,
  nameSource,
  readCampaign,
  referrerHost,
  screenClass,
  splitBeaconPath,
} from "#domain/analytics.ts";
import { isDomainError } from "#domain/errors.ts";
import { describeFeedFetcher, describeReaderAgent } from "./user-agent.ts";
import type { Database } from "../kernel/db/schema.ts";
import { createSettingsStore, type SettingsStore } from "../kernel/settings-store.ts";
import { type PeriodicWorker, periodicWorker, type Worker } from "../kernel/workers.ts";
import * as repository from "./repositories/analytics.ts";

/** How the counting runs; tests and the benchmark shrink or grow it. */
export interface AnalyticsTuning {
  /** Events held in memory at most; beyond that new ones are dropped (and logged). */
  bufferMax: number;
  /** A buffer this full is written at once, without waiting for the timer. */
  flushRows: number;
  flushMs: number;
  rollupMs: number;
  /** How old the previous rollup pass's highest id must be before a pass takes it (repositories/analytics.ts, beside this file). */
  settleMs: number;
}

export const DEFAULT_ANALYTICS_TUNING: AnalyticsTuning = {
  bufferMax: 10_000,
  flushRows: 500,
  flushMs: 1000,
  rollupMs: 60_000,
  settleMs: 5000,
};

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AnalyticsDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** The site's time zone now: the day an event counts in. */
  readTimeZone: () => Promise<string>;
  /** SITE_URL's host: part of the visitor key, and a referrer from it is no source. */
  siteHost: string;
  /** GEOIP_DB's lookup, when the owner gave one; never stored, only its country code. */
  countryOf?: (address: string) => string | null;
  tuning?: Partial<AnalyticsTuning>;
  /** The server's settings store; a store of its own when none is given (a benchmark, a test). */
  settingsStore?: SettingsStore;
}

/** What the HTTP layer knows of a beacon's request. */
export interface BeaconRequest {
  body: BeaconBody;
  address: string;
  userAgent: string;
  /** Sec-GPC: 1 or DNT: 1. */
  optedOut: boolean;
  /** It carries a session cookie this server signed: the writer reading their own blog. */
  signedIn: boolean;
}

export type BeaconOutcome = "counted" | "off" | "opted out" | "not a reader" | "signed in" | "dropped";

export interface AnalyticsReporter {
  error: (error: unknown, message: string) => void;
  warn: (message: string) => void;
}

export function createAnalytics({
  db,
  now,
  readTimeZone,
  siteHost,
  countryOf,
  tuning: overrides,
  settingsStore = createSettingsStore({ db, now }),
}: AnalyticsDeps) {
  const tuning = { ...DEFAULT_ANALYTICS_TUNING, ...overrides };
  const storedSettings = settingsStore.define({
    key: ANALYTICS_SETTINGS_KEY,
    schema: analyticsSettingsSchema,
    defaults: DEFAULT_ANALYTICS_SETTINGS,
    // Of these settings, readers' pages carry only whether counting is on (the beacon's attribute).
    isChange: (next, previous) => next.enabled !== previous.enabled,
  });
  let salt: { day: string; value: Promise<string> } | undefined;
  let events: repository.AnalyticsEventRow[] = [];
  let feedFetches = new Map<string, repository.FeedFetchRow>();
  let dropped = 0;
  let flushing: Promise<void> | undefined;
  /** The last write found the database down: retrying is the timer's, once a pass, not every beacon's. */
  let writeFailed = false;
  let loops: PeriodicWorker[] = [];
  let reporter: AnalyticsReporter | undefined;

  /** The settings, read from the database at most once a second. */
  const settings = (): Promise<AnalyticsSettings> => storedSettings.read();

  /** Today's salt, made or read once a day per server; yesterday's is no longer asked for. */
  function saltOf(day: string): Promise<string> {
    if (salt?.day !== day) {
      const value = repository.ensureSalt(db, day, randomBytes(32).toString("hex"));
      salt = { day, value };
      value.catch(() => {
        if (salt?.value === value) salt = undefined;
      });
    }
    return salt.value;
  }

  /** The first 16 bytes of SHA-256(salt ‖ host ‖ address ‖ user agent), in hex. */
  function keyOf(saltValue: string, address: string, userAgent: string): string {
    return createHash("sha256")
      .update(`${saltValue}\n${siteHost}\n${address}\n${userAgent}`)
      .digest("hex")
      .slice(0, 32);
  }

  async function today(): Promise<{ at: Date; day: string; hour: string; timeZone: string }> {
    const at = now();
    const timeZone = await readTimeZone();
    return { at, timeZone, ...dayAndHourIn(at, timeZone) };
  }

  /** A full buffer is written at once; during an outage the timer alone retries, and alone reports it. */
  function scheduleFlush(): void {
    if (events.length >= tuning.flushRows && !flushing && !writeFailed && loops.length > 0) {
      flush().catch((error: unknown) => {
        if (!isDomainError(error, "DATABASE_UNAVAILABLE")) reporter?.error(error, "writing analytics events failed");
      });
    }
  }

  async function writeBuffered(): Promise<void> {
    while (events.length > 0 || feedFetches.size > 0) {
      const batch = events.splice(0, tuning.flushRows);
      const fetches = [...feedFetches.values()];
      feedFetches = new Map();
      try {
        await repository.insertEvents(db, batch);
        await repository.upsertFeedFetches(db, fetches);
      } catch (error) {
        // Kept for the next flush while there is room: a short outage loses nothing. A batch the
        // database refuses for itself is dropped, or it would block every flush after it.
        if (isDomainError(error, "DATABASE_UNAVAILABLE")) {
          writeFailed = true;
          events = [...batch, ...events].slice(0, tuning.bufferMax);
          for (const fetch of fetches) {
            if (!feedFetches.has(feedFetchKey(fetch))) feedFetches.set(feedFetchKey(fetch), fetch);
          }
        }
        throw error;
      }
    }
    writeFailed = false;
  }

  /** Writes what the buffer holds; one write at a time, a second caller waits for the first. */
  async function flush(): Promise<void> {
    while (flushing) await flushing.catch(() => {});
    flushing = writeBuffered().finally(() => {
      flushing = undefined;
    });
    if (dropped > 0) {
      reporter?.warn(`analytics buffer full: ${dropped} events dropped`);
      dropped = 0;
    }
    await flushing;
  }

  async function rollUp(): Promise<{ events: number }> {
    // Read here too, so another server's change reaches this one's listeners within a pass even
    // where no settings worker runs.
    await settings();
    const { at, day } = await today();
    // A past day's salt leaves this server's memory too, not only the database.
    if (salt && salt.day !== day) salt = undefined;
    const result = await repository.rollUpEvents(db, { now: at, settleMs: tuning.settleMs });
    // Yesterday too: its last fetches may have been flushed after the previous pass.
    await repository.rollUpFeedFetches(db, dayBefore(day));
    await repository.deleteSaltsBefore(db, day);
    return { events: result.events };
  }

  function start(report: AnalyticsReporter): void {
    reporter = report;
    const every = (name: string, everyMs: number, run: () => Promise<unknown>, failure: string) =>
      periodicWorker({ name, everyMs, run, onError: (error) => report.error(error, failure) });
    loops = [
      every("analytics writes", tuning.flushMs, flush, "writing analytics events failed"),
      every("analytics rollups", tuning.rollupMs, rollUp, "rolling up analytics failed"),
    ];
    for (const loop of loops) void loop.start();
  }

  /** Lets a write or rollup in flight finish, then writes what is left: a graceful stop loses no view. */
  async function stop(): Promise<void> {
    const stopping = loops;
    loops = [];
    await Promise.all(stopping.map((loop) => loop.stop()));
    await flush();
  }

  return {
    settings,

    async saveSettings(next: AnalyticsSettings): Promise<void> {
      await storedSettings.save(next);
    },

    /** Calls `listener` when counting is turned on or off, here or (once noticed) on another server. */
    onChange(listener: (settings: AnalyticsSettings) => void): () => void {
      return storedSettings.onChange(listener);
    },

    /** Counts one page view, or says why not; the event waits in the buffer for the next flush. */
    async countView(request: BeaconRequest): Promise<BeaconOutcome> {
      if (!(await settings()).enabled) return "off";
      if (request.optedOut) return "opted out";
      if (request.signedIn) return "signed in";
      const agent = describeReaderAgent(request.userAgent);
      if (!agent) return "not a reader";
      const { path, search } = splitBeaconPath(request.body.p);
      // The admin's pages send no beacon; one that claims to be from there is not a reader's.
      if (path === "/admin" || path.startsWith("/admin/")) return "not a reader";
      if (events.length >= tuning.bufferMax) {
        dropped += 1;
        return "dropped";
      }
      const { at, day, hour } = await today();
      const key = keyOf(await saltOf(day), request.address, request.userAgent);
      const host = referrerHost(request.body.r, siteHost);
      const campaign = readCampaign(search);
      events.push({
        occurred_at: at.toISOString(),
        day,
        hour,
        kind: request.body.k === "nf" ? "not_found" : "view",
        path,
        visitor_key: key,
        source: host ? nameSource(host) : (campaign.utmSource ?? null),
        referrer_host: host,
        utm_source: campaign.utmSource,
        utm_medium: campaign.utmMedium,
        utm_campaign: campaign.utmCampaign,
        browser: agent.browser,
        os: agent.os,
        device: agent.device,
        screen: screenClass(request.body.w),
        country: countryOf?.(request.address) ?? null,
      });
      scheduleFlush();
      return "counted";
    },

    /** Notes a fetch of a feed: one row per fetcher a day, keyed like a visitor. */
    async countFeedFetch(request: { address: string; userAgent: string; optedOut: boolean }): Promise<boolean> {
      if (request.optedOut || !(await settings()).enabled) return false;
      const fetcher = describeFeedFetcher(request.userAgent);
      if (!fetcher) return false;
      const { day } = await today();
      const key = keyOf(await saltOf(day), request.address, request.userAgent);
      const row = { day, fetcher: fetcher.name, fetcher_key: key, subscribers: fetcher.subscribers };
      feedFetches.set(feedFetchKey(row), row);
      return true;
    },

    flush,
    rollUp,

    /** Raw events and feed fetches past the retention, and salts of past days; safe from every server. */
    async purgeExpired(): Promise<{ events: number; feedFetches: number; salts: number }> {
      const { at, day, timeZone } = await today();
      const { retentionDays } = await settings();
      const before = new Date(at.getTime() - retentionDays * DAY_MS);
      const purged = await repository.purgeRawBefore(db, {
        occurredBefore: before.toISOString(),
        dayBefore: dayAndHourIn(before, timeZone).day,
      });
      const salts = await repository.deleteSaltsBefore(db, day);
      return { ...purged, salts };
    },

    /** Starts the flush and rollup loops; `stop` writes what is left. */
    start,
    stop,

    /** Beacons wait in memory at most a second; every app server also takes its turn at the rollups. */
    worker(report: AnalyticsReporter): Worker {
      return { name: "analytics", start: async () => start(report), stop };
    },

    /** Events waiting in memory: what a crash would lose. */
    get buffered(): number {
      return events.length;
    },
  };
}

/** One row per fetcher a day: a later fetch replaces an earlier one waiting in the buffer. */
function feedFetchKey(row: repository.FeedFetchRow): string {
  return `${row.day} ${row.fetcher} ${row.fetcher_key}`;
}

function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

export type Analytics = ReturnType<typeof createAnalytics>;
