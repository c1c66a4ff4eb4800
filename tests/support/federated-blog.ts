import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, beforeEach } from "vitest";
import type { DatabaseHandle, Dialect } from "../../server/kernel/db/connect.ts";
import { type BlogFederation, createBlogFederation } from "../../server/fediverse/federation.ts";
import { serveFederation } from "../../server/fediverse/http.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase } from "./databases.ts";
import { createManualClock, TEST_PASSWORD_COST } from "./factories.ts";

export interface FederatedBlog {
  handle: DatabaseHandle;
  services: Services;
  fediverse: BlogFederation;
  clock: ReturnType<typeof createManualClock>;
  /** SITE_URL: http://127.0.0.1:{port}, where the federation answers. */
  siteUrl: string;
  /** A request to the blog, as a remote server would send it. */
  get: (path: string, accept?: string) => Promise<Response>;
}

/**
 * A fresh database of the dialect, the services on a clock the test moves, and the blog's
 * federation mounted on a port of 127.0.0.1 (its worker not started: tests call `sweep()`).
 * Anything the federation does not answer gets a plain 404 marked `x-passed-on`.
 */
export function useFederatedBlog({ dialect, skip }: { dialect: Dialect; skip: boolean }): FederatedBlog {
  const blog = {} as FederatedBlog;
  let listener: Server | undefined;
  beforeEach(async (context) => {
    if (skip) context.skip();
    const handle = await createTestDatabase(dialect);
    // Listening first: SITE_URL needs the port, and the services and federation need SITE_URL.
    listener = createServer();
    await new Promise<void>((resolve) => listener?.listen(0, "127.0.0.1", resolve));
    const siteUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const clock = createManualClock();
    const services = createServices({
      db: handle.db,
      dialect,
      now: clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: "federated blog test salt",
      siteUrl,
      fediverseAllowPrivateAddress: true,
    });
    const fediverse = await createBlogFederation({
      db: handle.db,
      dialect,
      siteUrl,
      services,
      now: clock.now,
      allowPrivateAddress: true,
    });
    const app = express();
    app.use(serveFederation({ fediverse, posts: services.fediverse, siteUrl }));
    app.use((_req, res) => void res.status(404).set("x-passed-on", "1").send("page"));
    listener.on("request", app);
    const get = (path: string, accept = "application/activity+json") =>
      fetch(new URL(path, siteUrl), { headers: { accept } });
    Object.assign(blog, { handle, services, fediverse, clock, siteUrl, get });
  });
  afterEach(async () => {
    await blog.fediverse?.stop();
    listener?.closeAllConnections();
    await new Promise((resolve) => (listener ? listener.close(resolve) : resolve(undefined)));
    await blog.handle?.close();
  });
  return blog;
}
