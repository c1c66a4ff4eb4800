// The Node entry: config → database → services → HTTP listener, and the reverse on SIGTERM.
// Production runs the server bundle (build/server); `--dev` loads the same module through Vite.
// `npm run dev` adds `--conditions=development` so Node and Vite load the same react-router build.
import type { Server } from "node:http";
import path from "node:path";
import type { ViteDevServer } from "vite";
import type { Worker } from "./server/kernel/workers.ts";

type ServerModule = typeof import("./server/app.ts");

const dev = process.argv.includes("--dev");
const SHUTDOWN_GRACE_MS = 10_000;

async function loadServerModule(): Promise<{ server: ServerModule; vite?: ViteDevServer }> {
  if (!dev) {
    const bundlePath = "./build/server/index.js";
    return { server: (await import(bundlePath)) as ServerModule };
  }
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  return { server: (await vite.ssrLoadModule("./server/app.ts")) as ServerModule, vite };
}

async function main(): Promise<void> {
  const { server, vite } = await loadServerModule();

  let config;
  try {
    config = server.parseConfig({ NODE_ENV: dev ? "development" : "production", ...process.env });
  } catch (error) {
    if (error instanceof server.ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = server.createLogger(config.logLevel, { pretty: config.logFormat === "auto" && process.stdout.isTTY });

  let database;
  try {
    database = await server.openDatabase(config.database);
  } catch (error) {
    if (error instanceof server.DatabaseUnavailableError) {
      console.error(`${error.message} (DATABASE_URL=${redactUrl(process.env.DATABASE_URL)})`);
      process.exit(1);
    }
    throw error;
  }

  // `npm run blog -- restore` refuses while this file names a live process.
  const releasePidFile = config.database.dialect === "sqlite" ? server.holdPidFile(config.database.filename) : () => {};

  const sessionSecret = server.resolveSessionSecret(config);
  const services = server.createServices({
    db: database.db,
    dialect: database.dialect,
    siteLinks: { aboutUrl: config.aboutUrl, sourceUrl: config.sourceUrl },
    commentIpSalt: server.resolveCommentIpSalt(config),
    sessionSecret,
    siteUrl: config.siteUrl,
    fediverseAllowPrivateAddress: config.fediverseAllowPrivateAddress,
    mail: config.mail,
    countryOf: config.geoipDb ? await server.openCountryLookup(config.geoipDb) : undefined,
    onWebmentionError: server.reportTo(logger, "queueing a post's Webmentions failed"),
    onWebhookError: server.reportTo(logger, "queueing a post's webhook calls failed"),
  });
  await server.prepareDatabase(database, config, services, logger);

  const pageCache = server.createPageCache({
    // Vite rebuilds pages on every edit in development: nothing there may be served from memory.
    maxBytes: dev ? 0 : config.pageCacheBytes,
  });
  services.changes.subscribe((tags) => pageCache.invalidate(tags));
  // Other app servers on the same PostgreSQL database cache pages too; SQLite has one process.
  const relay =
    config.database.dialect === "postgres"
      ? await server.startContentChangeRelay({
          db: database.db,
          connectionString: config.database.connectionString,
          changes: services.changes,
          target: pageCache,
          logger,
        })
      : undefined;
  // Every group of settings shows on readers' pages: the site's title, links, footer and time zone,
  // the fediverse handle ("Follow @blog@host"), and the beacon's attribute while counting is on.
  services.settings.onChange(() => pageCache.clear());

  // The blog's actor: keys are made on the first start; delivery waits for the worker below.
  const fediverse = await server.createBlogFederation({
    db: database.db,
    dialect: database.dialect,
    siteUrl: config.siteUrl,
    services,
    allowPrivateAddress: config.fediverseAllowPrivateAddress,
    onError: (error: unknown) => logger.error({ err: error }, "fediverse delivery failed"),
    onInboxError: (error: unknown) => logger.warn({ err: error }, "an activity sent to the inbox was refused"),
    onDeliveryError: (error: unknown) =>
      logger.warn({ err: error }, "a delivery to a follower's server failed (retried) or was dropped"),
  });

  const app = server.createHttpApp({
    pageCache,
    fediverse,
    config,
    services,
    logger,
    sessionSecret,
    build: vite
      ? async () => (await vite.ssrLoadModule("virtual:react-router/server-build")) as ServerModule["build"]
      : server.build,
    assets: vite ? { viteMiddleware: vite.middlewares } : { clientDir: path.resolve("build/client") },
  });

  const listener: Server = app.listen(config.port, config.host, () => {
    const address = listener.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info(`Blog ready at http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`);
  });
  listener.on("connect", server.refuseConnect);
  const setupToken = await services.setup.issueSetupToken();
  if (setupToken) {
    const setupLink = `${config.siteUrl}/setup?${new URLSearchParams({ token: setupToken })}`;
    logger.warn(
      `No admin account yet. Create the first one in your browser (the link works once, for 24 hours): ${setupLink} ` +
        "or run `npm run blog -- create-admin`, or set ADMIN_EMAIL and ADMIN_PASSWORD.",
    );
  }

  // The outbox's worker: every app server sends its share of what is queued, through SMTP_URL or
  // the mail server saved on Settings → Email; while neither is set up and tested it waits.
  const mailer = server.createMailer({ rate: config.smtpRate, current: services.email.transport });
  if (!(await services.email.isOn())) {
    logger.info("Email is off: set it up in the admin (Settings → Email), or set SMTP_URL and MAIL_FROM.");
  }

  // This server's background loops (server/kernel/workers.ts), started in this order and stopped
  // in the reverse one on SIGTERM, each after the run in flight: the batch being sent is recorded,
  // deliveries in flight leave the queue, views in memory are written, an import says how far it got.
  const workers: Worker[] = [
    // Another server's save must reach this one's cached pages, which are served without reading settings.
    services.settings.worker(server.reportTo(logger, "checking the settings failed")),
    services.housekeeping.worker(server.reportTo(logger, "housekeeping failed"), (purged) =>
      logger.debug(purged, "expired sessions and rate limits purged"),
    ),
    services.analytics.worker({
      error: (error: unknown, message: string) => logger.error({ err: error }, message),
      warn: (message: string) => logger.warn(message),
    }),
    services.subscribers.worker,
    // Every app server delivers its share of the fediverse queue and sweeps for posts to send.
    fediverse.worker,
    services.outbox.worker(
      mailer,
      server.reportTo(logger, "sending queued email failed"),
      // The confirmations subscriptions asked for are queued by whichever server looks first
      // (their answer went before the email was queued).
      services.subscriptions.sendRequestedConfirmations,
    ),
    // Each server looks for the day's comment digest; the day's row lets one send it.
    services.commentEmails.digestWorker(server.reportTo(logger, "queuing the comment digest failed")),
    // Every app server verifies its share of received mentions and sends the posts' notices.
    services.webmention.worker(server.reportTo(logger, "working the Webmention queue failed")),
    // Every app server delivers its share of the webhook calls.
    services.webhooks.worker(server.reportTo(logger, "delivering webhooks failed")),
    // Scheduled posts become public through the same door as a save (server/posts/service.ts, PostLife).
    services.posts.scheduledPosts(server.reportTo(logger, "looking for scheduled posts failed")),
  ];
  // A post's life nudges the sweep: a post becoming public, changed or withdrawn is swept at once.
  services.fediverseSweep.attach(fediverse.worker);
  await server.startWorkers(workers);

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info(`${signal} received: finishing in-flight requests`);
    const forceExit = setTimeout(() => {
      logger.warn("requests still open after the grace period; closing them");
      listener.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forceExit.unref();
    listener.close(async () => {
      // Each finishes its run in flight before the database closes; what is still queued waits there.
      await server.stopWorkers(workers, logger);
      mailer.close();
      await vite?.close();
      await relay?.close();
      await database.close();
      releasePidFile();
      logger.info("stopped");
      process.exit(0);
    });
    listener.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

function redactUrl(url: string | undefined): string {
  return (url ?? "file:./data/blog.sqlite").replace(/\/\/[^@/]*@/, "//***@");
}

await main();
