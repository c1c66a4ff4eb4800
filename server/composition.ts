import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { emailSender } from "#domain/site-settings.ts";
import { absoluteUrl } from "#domain/site-urls.ts";
import { type Dialect, pingDatabase } from "./kernel/db/connect.ts";
import type { Database } from "./kernel/db/schema.ts";
import type { MailConfig } from "./kernel/config.ts";
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
  createPasswordResetService,
  type ScryptCost,
} from "./accounts/index.ts";
import { createCommentService } from "./comments/index.ts";
import { createCommentEmails } from "./comment-emails/index.ts";
import { createContentChanges } from "./kernel/content-changes.ts";
import { createFediverseService } from "./fediverse/index.ts";
import { createHousekeeping } from "./housekeeping.ts";
import { createDatabaseMediaStore, createMediaService, type MediaStore } from "./media/index.ts";
import {
  createAccountEmails,
  createEmailServer,
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
import { createIndieAuthService, createMicropubAuthenticator, createMicropubService } from "./micropub/index.ts";
import { createXmlRpcMethods } from "./xmlrpc/index.ts";
import { logoImage, SITE_ICON_PATHS } from "#domain/site-look.ts";
import { createWebmentionService, type WebmentionTuning } from "./webmention/index.ts";
import { createEmbedsService } from "./embeds/index.ts";
import { createWebhookService, type WebhookTuning } from "./webhooks/index.ts";

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
  /** SMTP_URL and MAIL_FROM: the mail server, which wins over the one saved on Settings → Email. */
  mail?: MailConfig;
  /** Tests that queue email without any mail server: email counts as on, as with SMTP_URL. */
  emailOn?: boolean;
  outboxTuning?: OutboxTuning;
  /** GEOIP_DB's country lookup (server/analytics/geoip.ts); unset: no country is recorded. */
  countryOf?: (address: string) => string | null;
  analyticsTuning?: Partial<AnalyticsTuning>;
  webmentionTuning?: Partial<WebmentionTuning>;
  /** Hears a post's Webmention notices that could not be queued (the save itself stands). */
  onWebmentionError?: (error: unknown) => void;
  webhookTuning?: Partial<WebhookTuning>;
  /** Hears a deleted or restored post's webhook event that could not be queued (the change itself stands). */
  onWebhookError?: (error: unknown) => void;
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
  mail,
  emailOn = false,
  outboxTuning,
  countryOf,
  analyticsTuning,
  webmentionTuning,
  onWebmentionError = () => {},
  webhookTuning,
  onWebhookError = () => {},
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
  // One hashing of keys for every counter, so app servers and the CLI count on the same rows.
  const rateLimiter = createRateLimiter({ db, now, secret: commentIpSalt });
  // The mail server: SMTP_URL's, or the one saved on Settings → Email; email is on once it is tested.
  const email = createEmailServer({
    db,
    now,
    settingsStore: settings,
    secret: sessionSecret,
    environment: mail,
    alwaysOn: emailOn,
    audit,
    limiter: rateLimiter,
  });
  // Enqueueing only writes rows; each server's worker (server.ts) sends them while email is on.
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
  const postNewsletter = createPostNewsletter({ db, now, outbox, readSite, email });
  // A mail server saved or tested, here or on another server: the outbox looks again at once.
  email.onChange(outbox.wake);
  // A post's life (server/posts/service.ts) and what follows from it, side by side: the newsletter emails
  // a post once, when it first becomes public; the fediverse's sweep, nudged at every moment, sends
  // followers what readers now see (its worker is made in server.ts, which attaches it here).
  const fediverseSweep = createLateNudge();
  // The owner's webhooks: each post moment and comment queues its calls in the change's own transaction.
  const webhooks = createWebhookService({
    db,
    dialect,
    now,
    audit,
    settingsStore: settings,
    serverSecret: sessionSecret,
    siteUrl,
    allowPrivateAddress: fediverseAllowPrivateAddress,
    tuning: webhookTuning,
  });
  // A comment's life and what follows from it: while email is on, the writer hears of new comments
  // and readers of replies (server/comment-emails), queued in the comment's own transaction
  // (registered whether or not email is on: it is asked at each comment); and the webhooks told of comments.
  const comments = createCommentService({
    db,
    now,
    ipSalt: commentIpSalt,
    changes,
    life: [{ prepare: () => commentEmails.life.prepare() }, webhooks.commentLife],
  });
  const commentEmails = createCommentEmails({
    db,
    now,
    secret: sessionSecret,
    siteUrl,
    email,
    outbox,
    comments,
    settingsStore: settings,
    readSite: async () => {
      const site = await siteSettings.current();
      return { title: site.title, url: siteUrl, timeZone: site.timeZone };
    },
  });
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
    // Asked at each save whether email is on (newsletterAfterSave): only a post that wants an email has one.
    postNewsletter.postLife,
    {
      becamePublic: {
        afterCommit: fediverseSweep.nudge,
        byClock: async (arrived) => arrived && fediverseSweep.nudge(),
      },
      changedWhilePublic: { afterCommit: fediverseSweep.nudge },
      stoppedBeingPublic: { afterCommit: fediverseSweep.nudge },
    },
    webmention.postLife(onWebmentionError),
    webhooks.postLife(onWebhookError),
  ];
  const pages = createPageService({ db, now, audit, changes });
  // Bookmark cards read other pages when a post is saved, with the fediverse's private-address rule.
  const embeds = createEmbedsService({
    db,
    now,
    limiter: rateLimiter,
    allowPrivateAddress: fediverseAllowPrivateAddress,
  });
  const posts = createPostService({
    db,
    dialect,
    now,
    audit,
    changes,
    life: postLife,
    isEmailOn: email.isOnNow,
    linkPreviews: embeds.previewsFor,
  });
  const categories = createCategoryService({ db, audit, changes });
  const media = createMediaService({ db, store, now });
  const users = createUserService({ db, now, audit, passwordCost, store, changes });
  // An invitation's link goes by email too while email is on (the owner can still copy it).
  const accountEmails = createAccountEmails({ outbox, isEmailOn: email.isOn, readSite });
  const passwordReset = createPasswordResetService({
    db,
    now,
    audit,
    rateLimiter,
    loginThrottle,
    passwordCost,
    sendLink: (to, token) =>
      accountEmails.sendPasswordReset({ to, link: `${siteUrl}/reset-password?${new URLSearchParams({ token })}` }),
  });
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
  const ghostAdmin = createGhostAdmin({ db, now, apps: appKeys, posts, media, siteUrl, readSite: readSiteForApps });
  const apps = {
    keys: appKeys,
    admin: ghostAdmin,
    content: createGhostContent({ db, now, posts, siteUrl, readSite: readSiteForApps }),
  };
  // Micropub and IndieAuth: app keys' tokens, or tokens the writer granted, over the same posts and media services.
  const indieAuth = createIndieAuthService({ db, now, audit, rateLimiter, siteUrl });
  const micropub = {
    service: createMicropubService({ db, now, audit, posts, media, siteUrl }),
    authenticate: createMicropubAuthenticator(appKeys, indieAuth),
    indieAuth,
  };
  // MetaWeblog (MarsEdit and its kind) writes through the Admin API's operations, so through the posts service.
  const xmlrpc = createXmlRpcMethods({
    db,
    now,
    keys: appKeys,
    admin: ghostAdmin,
    posts,
    siteUrl,
    readSite: readSiteForApps,
  });
  return {
    apps,
    micropub,
    xmlrpc,
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
    webhooks,
    embeds,
    auth,
    twoFactor,
    users,
    siteSettings,
    outbox,
    email,
    accountEmails,
    passwordReset,
    postNewsletter,
    fediverseSweep,
    subscriptions: createSubscriptionService({
      db,
      now,
      secret: sessionSecret,
      readSite: async () => ({ title: (await siteSettings.current()).title, url: siteUrl }),
      enqueueSingle: outbox.enqueueSingle,
      isEmailOn: email.isOn,
      limiter: rateLimiter,
    }),
    subscribers: createSubscriberAdmin({ db, now }),
    audit,
    analytics,
    housekeeping: createHousekeeping({ db, now, auth, audit, analytics, webhooks }),
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
