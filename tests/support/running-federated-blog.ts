import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DatabaseHandle } from "../../server/kernel/db/connect.ts";
import { parseConfig } from "../../server/kernel/config.ts";
import { type BlogFederation, createBlogFederation } from "../../server/fediverse/federation.ts";
import type { InboxRateLimits } from "../../server/fediverse/inbox-gate.ts";
import { createHttpApp } from "../../server/http.ts";
import { createLogger } from "../../server/kernel/logger.ts";
import { createPageCache } from "../../server/kernel/page-cache.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase } from "./databases.ts";
import { TEST_PASSWORD_COST } from "./factories.ts";

export interface RunningFederatedBlog {
  handle: DatabaseHandle;
  services: Services;
  /** A second app server's services over the same database and secret, as a second process would make them. */
  anotherAppServer: () => Services;
  federation: BlogFederation;
  siteUrl: string;
  close: () => Promise<void>;
}

export interface RunningFederatedBlogOptions {
  /** Budgets smaller than the production ones, so a test can spend them. */
  inboxRateLimits?: InboxRateLimits;
  /** Sweeps at once after every content change, as a writer's save is announced without waiting. */
  sweepOnChanges?: boolean;
}

/**
 * The blog as server.ts wires it (services, federation and its worker, the whole Express app) on
 * a port of 127.0.0.1, for tests that talk to it from a second real server
 * (tests/support/fediverse-peer.ts). Only React Router's build is missing, which no fediverse
 * address reaches.
 */
export async function startRunningFederatedBlog(
  dialect: "sqlite" | "postgres",
  options: RunningFederatedBlogOptions = {},
): Promise<RunningFederatedBlog> {
  const handle = await createTestDatabase(dialect);
  const listener: Server = createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const siteUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const config = parseConfig({
    NODE_ENV: "test",
    SITE_URL: siteUrl,
    DATABASE_URL: handle.url,
    FEDIVERSE_ALLOW_PRIVATE_ADDRESS: "true",
  });
  const sessionSecret = "fediverse test secret, thirty-two characters or more";
  const makeServices = () =>
    createServices({
      db: handle.db,
      dialect,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: "fediverse test salt",
      sessionSecret,
      siteUrl,
      fediverseAllowPrivateAddress: config.fediverseAllowPrivateAddress,
    });
  const services = makeServices();
  const federation = await createBlogFederation({
    db: handle.db,
    dialect,
    siteUrl,
    services,
    allowPrivateAddress: config.fediverseAllowPrivateAddress,
    queueTuning: { pollIntervalMs: 50 },
    sweepIntervalMs: 200,
    inboxRateLimits: options.inboxRateLimits,
  });
  const app = createHttpApp({
    config,
    services,
    logger: createLogger("silent"),
    sessionSecret,
    build: () => Promise.reject(new Error("no page is rendered in this test")),
    assets: { clientDir: path.join(tmpdir(), "inkwell-no-client") },
    pageCache: createPageCache({ maxBytes: 0 }),
    fediverse: federation,
  });
  listener.on("request", app);
  await federation.start();
  const unsubscribe = options.sweepOnChanges ? services.changes.subscribe(() => void federation.nudge()) : () => {};
  return {
    handle,
    services,
    anotherAppServer: makeServices,
    federation,
    siteUrl,
    async close() {
      unsubscribe();
      await federation.stop();
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
      await handle.close();
    },
  };
}
