import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { emailSender } from "#domain/site-settings.ts";
import { absoluteUrl } from "#domain/site-urls.ts";
import { type Dialect, pingDatabase } from "./kernel/db/connect.ts";
import type { Database } from "./kernel/db/schema.ts";
import { createFeedService } from "./feeds/index.ts";
import { createSettingsStore } from "./kernel/settings-store.ts";
import { createLateNudge } from "./kernel/workers.ts";
import { type AnalyticsTuning, createAnalytics, createAnalyticsReports } from "./analytics/index.ts";
import {
  createAuditLog,
  createAuthService,
  createLoginThrottle,
  createSetupService,
  createTwoFactorService,
  createUserService,
  type ScryptCost,
} from "./accounts/index.ts";
import { createCommentService } from "./comments/index.ts";
import { createCommentEmails } from "./comment-emails/index.ts";
import { createContentChanges } from "./kernel/content-changes.ts";
import { createFediverseService } from "./fediverse/index.ts";
import { createHousekeeping } from "./housekeeping.ts";
import { createDatabaseMediaStore, createMediaService, type MediaStore } from "./media/index.ts";
import {
  createOutbox,
  createPostNewsletter,
  createSubscriberAdmin,
  createSubscriptionService,
  createSubscriptionTokens,
  type OutboxTuning,
} from "./newsletter/index.ts";
import { createPortabilityService } from "./portability/index.ts";
import { createNavigationService, createSiteSettingsService, defaultSiteSettings } from "./site/index.ts";
import { createPageService } from "./pages/index.ts";
import { createDemoService } from "./demo/index.ts";
import { createCategoryService, createPostService, type PostLife } from "./posts/index.ts";
import { createRateLimiter } from "./kernel/rate-limit.ts";
import { createAppsService, createGhostAdmin, createGhostContent } from "./apps/index.ts";
import { logoImage, SITE_ICON_PATHS } from "#domain/site-look.ts";
import { createWebmentionService, type WebmentionTuning } from "./webmention/index.ts";

export interface ServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  now?: () => Date;
  passwordCost?: ScryptCost;
  /** ABOUT_URL and SOURCE_URL: what the site links to until the owner saves settings of their own. */
  siteLinks?: { aboutUrl: string; sourceUrl: string };
  /**
   * Salts comment address hashes and keys the hashes rate limits are counted under
   * (server/kernel/config.ts resolveCommentIpSalt).
   */
  commentIpSalt: string;
  /** Where image files live; the database unless another store is given. */
  mediaStore?: MediaStore;
  /**
   * Signs newsletter links (server/kernel/config.ts resolveSessionSecret). Unset (tools, tests): a secret
   * of this process alone, so no link it signs outlives it.
   */
  sessionSecret?: string;
  /** SITE_URL: where the newsletter's links point. */
  siteUrl?: string;
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS: followers' inboxes may be private addresses (test servers only). */
  fediverseAllowPrivateAddress?: boolean;
  /** SMTP_URL is set: addresses may be collected, as a confirmation email can reach them. */
  emailOn?: boolean;
  outboxTuning?: OutboxTuning;
  /** GEOIP_DB's country lookup (server/analytics/geoip.ts); unset: no country is recorded. */
  countryOf?: (address: string) => string | null;
  analyticsTuning?: Partial<AnalyticsTuning>;
  webmentionTuning?: Partial<WebmentionTuning>;
  /** Hears a post's Webmention notices that could not be queued (the save itself stands). */
  onWebmentionError?: (error: unknown) => void;
}

const EXAMPLE_LINKS = { aboutUrl: "https://example.com/about", sourceUrl: "https://example.com/source" };

export function createServices({
  db,
  dialect,
  now = () => new Date(),
  passwordCost,
  siteLinks = EXAMPLE_LINKS,
  commentIpSalt,
  mediaStore,
  sessionSecret = randomBytes(32).toString("base64url"),
  siteUrl = "http://localhost:3000",
  fediverseAllowPrivateAddress = false,
  emailOn = false,
  outboxTuning,
  countryOf,
  analyticsTuning,
  webmentionTuning,
  onWebmentionError = () => {},
}: ServiceDeps) {
  const audit = createAuditLog({ db, now });
  const twoFactor = createTwoFactorService({ db, now, audit });
  const loginThrottle = createLoginThrottle({ db, now, secret: commentIpSalt });
  const auth = createAuthService({ db, now, passwordCost, audit, twoFactor, loginThrottle });
  const changes = createContentChanges();
  const store = mediaStore ?? createDatabaseMediaStore(db);
  // Every group of settings this server caches, checked against the database by one timer.
  const settings = createSettingsStore({ db, now });
  const siteSettings = createSiteSettingsService({
    db,
    now,
    audit,
    store,
    settingsStore: settings,
    defaults: defaultSiteSettings(siteLinks),
  });
  const tokens = createSubscriptionTokens({ secret: sessionSecret, now });
  // Enqueueing only writes rows; the worker that sends them starts in server.ts when SMTP_URL is set.
  const outbox = createOutbox({
    db,
    dialect,
    now,
    unsubscribeUrl: (subscriberId) =>
      absoluteUrl(siteUrl, `/unsubscribe?token=${encodeURIComponent(tokens.unsubscribeToken(subscriberId))}`),
    readSender: async () => emailSender(await siteSettings.current()),
    // A reply email's reader is found, and their address unsealed, only as it is sent.
    readCommentReaders: (commentIds) => commentEmails.readCommentReaders(commentIds),
    tuning: outboxTuning,
  });
  const analytics = createAnalytics({
    db,
    now,
    settingsStore: settings,
    readTimeZone: async () => (await siteSettings.current()).timeZone,
    siteHost: new URL(siteUrl).host,
    countryOf,
    tuning: analyticsTuning,
  });
  const readSite = async () => ({ title: (await siteSettings.current()).title, url: siteUrl });
  const postNewsletter = createPostNewsletter({ db, now, outbox, readSite, emailOn });
  // A post's life (server/posts/service.ts) and what follows from it, side by side: the newsletter emails
  // a post once, when it first becomes public; the fediverse's sweep, nudged at every moment, sends
  // followers what readers now see (its worker is made in server.ts, which attaches it here).
  const fediverseSweep = createLateNudge();
  // A comment's life and what follows from it: while email is on, the writer hears of new comments
  // and readers of replies (server/comment-emails), queued in the comment's own transaction.
  const comments = createCommentService({
    db,
    now,
    ipSalt: commentIpSalt,
    changes,
    life: emailOn ? [{ prepare: () => commentEmails.life.prepare() }] : [],
  });
  const commentEmails = createCommentEmails({
    db,
    now,
    secret: sessionSecret,
    siteUrl,
    open: emailOn,
    outbox,
    comments,
    settingsStore: settings,
    readSite: async () => {
      const site = await siteSettings.current();
      return { title: site.title, url: siteUrl, timeZone: site.timeZone };
    },
  });
  // One hashing of keys for every counter, so app servers and the CLI count on the same rows.
  const rateLimiter = createRateLimiter({ db, now, secret: commentIpSalt });
  const fediverse = createFediverseService({
    db,
    now,
    audit,
    comments,
    siteUrl,
    allowPrivateAddress: fediverseAllowPrivateAddress,
    settingsStore: settings,
  });
  const webmention = createWebmentionService({
    db,
    dialect,
    now,
    siteUrl,
    comments,
    isBlocked: (url) => fediverse.isBlocked(url),
    limiter: rateLimiter,
    settingsStore: settings,
    allowPrivateAddress: fediverseAllowPrivateAddress,
    tuning: webmentionTuning,
  });
  // ... and Webmention queues a notice to every page a public post links.
  const postLife: PostLife[] = [
    ...(emailOn ? [postNewsletter.postLife] : []),
    {
      becamePublic: {
        afterCommit: fediverseSweep.nudge,
        byClock: async (arrived) => arrived && fediverseSweep.nudge(),
      },
      changedWhilePublic: { afterCommit: fediverseSweep.nudge },
      stoppedBeingPublic: { afterCommit: fediverseSweep.nudge },
    },
    webmention.postLife(onWebmentionError),
  ];
  const pages = createPageService({ db, now, audit, changes });
  const posts = createPostService({ db, dialect, now, audit, changes, life: postLife, emailOn });
  const categories = createCategoryService({ db, audit, changes });
  const media = createMediaService({ db, store, now });
  const users = createUserService({ db, now, audit, passwordCost, store, changes });
  // Writing apps and headless sites: keys acting as their account, Ghost's APIs over the services above.
  const appKeys = createAppsService({ db, now, audit, rateLimiter, serverSecret: sessionSecret });
  const readSiteForApps = async () => {
    const site = await siteSettings.current();
    return {
      title: site.title,
      description: site.description,
      logo: logoImage(site.logo)?.src ?? "",
      siteIcon: site.siteIcon ? SITE_ICON_PATHS.manifestLarge.path : "",
      timeZone: site.timeZone,
    };
  };
  const apps = {
    keys: appKeys,
    admin: createGhostAdmin({ db, now, apps: appKeys, posts, media, siteUrl, readSite: readSiteForApps }),
    content: createGhostContent({ db, now, posts, siteUrl, readSite: readSiteForApps }),
  };
  return {
    apps,
    settings,
    changes,
    posts,
    categories,
    comments,
    commentEmails,
    pages,
    feeds: createFeedService({ posts, pages, media, categories, users }),
    navigation: createNavigationService({ siteSettings, pages, categories }),
    fediverse,
    webmention,
    auth,
    twoFactor,
    users,
    siteSettings,
    outbox,
    postNewsletter,
    fediverseSweep,
    subscriptions: createSubscriptionService({
      db,
      now,
      secret: sessionSecret,
      readSite: async () => ({ title: (await siteSettings.current()).title, url: siteUrl }),
      enqueueSingle: emailOn ? outbox.enqueueSingle : undefined,
      limiter: rateLimiter,
    }),
    subscribers: createSubscriberAdmin({ db, now }),
    audit,
    analytics,
    housekeeping: createHousekeeping({ db, now, auth, audit, analytics }),
    loginThrottle,
    rateLimiter,
    setup: createSetupService({ db, now, passwordCost }),
    portability: createPortabilityService({ db, now, changes, mediaStore: store }),
    media,
    demo: createDemoService({ db, posts, now }),
    health: { check: () => pingDatabase(db) },
    analyticsReports: createAnalyticsReports({ db, now }),
  };
}

export type Services = ReturnType<typeof createServices>;
