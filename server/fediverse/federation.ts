import { randomUUID } from "node:crypto";
import { createFederation, type Federation } from "@fedify/fedify";
import { Accept, Follow, Reject } from "@fedify/vocab";
import type { Kysely } from "kysely";
import { isDomainError } from "#domain/errors.ts";
import { fediverseHandle } from "#domain/fediverse.ts";
import type { Dialect } from "../kernel/db/connect.ts";
import type { Database } from "../kernel/db/schema.ts";
import { listCreatedVersions } from "./repositories/fediverse-posts.ts";
import type { FollowerDetail } from "./service.ts";
import type { Services } from "../composition.ts";
import { registerActor } from "./actor.ts";
import { BLOG_ACTOR, type PostSources, registerArticles } from "./articles.ts";
import { sweepDeliveries, type SweepReport } from "./delivery.ts";
import { loadOrCreateKeyPairs } from "./keys.ts";
import { DatabaseKvStore } from "./kv-store.ts";
import { registerInbox } from "./inbox.ts";
import { createInboxGate, type InboxRateLimits } from "./inbox-gate.ts";
import { DatabaseMessageQueue, type MessageQueueTuning } from "./message-queue.ts";
import { type PeriodicWorker, periodicWorker } from "../kernel/workers.ts";

/** A follower as the admin's actions name it. */
type FollowerAnswerTarget = Pick<FollowerDetail, "actorUrl" | "inboxUrl" | "followActivityId">;

/** The services the federation reads and changes (server/composition.ts). */
export type FederationServices = Pick<Services, "posts" | "siteSettings" | "fediverse" | "rateLimiter">;

export interface BlogFederationOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  /** SITE_URL: the canonical origin of every id, whatever Host a request arrived with. */
  siteUrl: string;
  services: FederationServices;
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS: tests only; the production start refuses it (server/kernel/config.ts). */
  allowPrivateAddress?: boolean;
  now?: () => Date;
  queueTuning?: MessageQueueTuning;
  /** The inbox's budgets per client address and per verified server (inbox-gate.ts has the defaults). */
  inboxRateLimits?: InboxRateLimits;
  /** How often the worker compares what is public with what followers were sent. */
  sweepIntervalMs?: number;
  /** Reports a failed sweep (the database away for a moment); the next one tries again. */
  onError?: (error: unknown) => void;
  /**
   * Reports an activity the inbox could not take: malformed (answered 400) or a listener's
   * failure (Fedify's queue tries it again). A remote server's doing, so not an error of ours.
   */
  onInboxError?: (error: unknown) => void;
  /**
   * Reports a delivery a follower's server refused or missed (Fedify tries it again later), or
   * one dropped because its inbox is not a public address (a PrivateAddressError, not retried).
   */
  onDeliveryError?: (error: unknown) => void;
}

/** What admin actions reach through the request context (server/request-context.ts). */
export interface FederationHandle {
  /** Marks a pending follower accepted and sends their server the Accept. */
  acceptFollower(followerId: string): Promise<void>;
  /** Removes a follower, pending or accepted, and sends their server a Reject of the Follow. */
  rejectFollower(followerId: string): Promise<void>;
  /** "@blog@example.com": the handle readers type to follow. */
  handleUrl(): string;
}

export type BlogFederation = Awaited<ReturnType<typeof createBlogFederation>>;

/**
 * The blog in the fediverse (docs/decisions/0015-fediverse.md): Fedify with its store and queue in
 * the blog's database, the actor, Articles, outbox, followers and NodeInfo, F3's inbox listeners,
 * and the worker that delivers. Keys are read (or made, the first time) here, at boot.
 */
export async function createBlogFederation(options: BlogFederationOptions) {
  const { db, dialect, siteUrl, services } = options;
  const now = options.now ?? (() => new Date());
  const queue = new DatabaseMessageQueue(
    { db, dialect, now, allowPrivateAddress: options.allowPrivateAddress, onRefused: options.onDeliveryError },
    options.queueTuning,
  );
  const kv = new DatabaseKvStore(db, now);
  const federation: Federation<void> = createFederation({
    kv,
    queue,
    origin: new URL(siteUrl).origin,
    manuallyStartQueue: true,
    allowPrivateAddress: options.allowPrivateAddress ?? false,
    // Signatures are always checked: an unsigned or forged activity is answered 401.
    skipSignatureVerification: false,
    onOutboxError: (error) => options.onDeliveryError?.(error),
  });
  const keyPairs = await loadOrCreateKeyPairs(db, BLOG_ACTOR);
  // The handle as last read: the request context's handleUrl() needs no query, so a page never
  // waits on (or fails with) the database for it. Saves here and reads that find another
  // server's save update it.
  let handle = (await services.fediverse.settings()).handle;
  services.fediverse.onChange((settings) => {
    handle = settings.handle;
  });
  const readSettings = async () => {
    const settings = await services.fediverse.settings();
    handle = settings.handle;
    return settings;
  };

  registerActor(federation, {
    siteUrl,
    readSite: () => services.siteSettings.current(),
    readSettings,
    keyPairs,
    followers: services.fediverse,
  });
  registerArticles(federation, {
    siteUrl,
    ...bindPosts(services.posts),
    createdVersions: (postIds) => listCreatedVersions(db, postIds),
  });
  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async () => ({
    software: { name: "inkwell", version: "0.1.0" },
    protocols: ["activitypub"],
    usage: {
      users: { total: 1, activeMonth: 1, activeHalfyear: 1 },
      localPosts: await services.posts.countPublishedPosts(),
      localComments: 0,
    },
    openRegistrations: false,
  }));
  registerInbox(federation, {
    fediverse: services.fediverse,
    identifier: BLOG_ACTOR,
    onError: (error) => options.onInboxError?.(error),
  });
  const inboxGate = createInboxGate({
    federation,
    kv,
    siteUrl,
    identifier: BLOG_ACTOR,
    limiter: services.rateLimiter,
    fediverse: services.fediverse,
    rateLimits: options.inboxRateLimits,
  });

  const context = () => federation.createContext(new URL(siteUrl), undefined);

  async function answerFollow(follower: FollowerAnswerTarget, answer: "accept" | "reject"): Promise<void> {
    const ctx = context();
    const actor = ctx.getActorUri(BLOG_ACTOR);
    const follow = new Follow({
      id: follower.followActivityId ? new URL(follower.followActivityId) : null,
      actor: new URL(follower.actorUrl),
      object: actor,
    });
    const values = { id: new URL(`${actor.href}#${answer}s/${randomUUID()}`), actor, object: follow };
    await ctx.sendActivity(
      { identifier: BLOG_ACTOR },
      { id: new URL(follower.actorUrl), inboxId: new URL(follower.inboxUrl) },
      answer === "accept" ? new Accept(values) : new Reject(values),
    );
  }

  const sweep = (): Promise<SweepReport> =>
    sweepDeliveries({
      db,
      siteUrl,
      now,
      context,
      // No longer public: the next sweep sends its Delete. Any other failure, as the database
      // out of reach, stops the sweep and reaches onError; the change waits for the next sweep.
      findPublicPost: (id) =>
        services.posts.findPublicPost(id).catch((error: unknown) => {
          if (isDomainError(error, "POST_NOT_FOUND") || isDomainError(error, "POST_NOT_AVAILABLE")) return undefined;
          throw error;
        }),
    });
  const worker = createWorker({
    federation,
    queue,
    kv,
    sweep,
    sweepIntervalMs: options.sweepIntervalMs,
    onError: (error) => options.onError?.(error),
  });

  const requestHandle: FederationHandle = {
    acceptFollower: async (followerId) => {
      const follower = await services.fediverse.approveFollower(followerId);
      if (follower) await answerFollow(follower, "accept");
    },
    rejectFollower: async (followerId) => {
      const follower = await services.fediverse.removeFollower(followerId);
      if (follower) await answerFollow(follower, "reject");
    },
    handleUrl: () => fediverseHandle(handle, siteUrl),
  };

  return {
    federation,
    /** What an inbox POST passes before fetch: its address's budget, its signature and signer, its server's budget. */
    inboxGate,
    /** Answers the actor, WebFinger, NodeInfo, Articles and the inbox (server/fediverse/http.ts). */
    fetch: (
      request: Request,
      handlers: { onNotFound: () => Promise<Response>; onNotAcceptable: () => Promise<Response> },
    ) => federation.fetch(request, { contextData: undefined, ...handlers }),
    /** What the request context hands admin actions (server/request-context.ts). */
    requestHandle,
    /** One comparison of what is public with what was sent; the worker runs it on a timer. */
    sweep,
    /** Delivering, as one of the server's workers: the queue's listener and the sweep. */
    worker,
    /** Starts delivering: the queue's listener and the sweep. Call once, at boot. */
    start: worker.start,
    /** Lets the deliveries in flight finish, then stops. */
    stop: worker.stop,
    /** Runs a sweep soon, as after a post is saved: publishing needs no wait for the timer. */
    nudge: worker.nudge,
  };
}

function bindPosts(posts: FederationServices["posts"]): Omit<PostSources, "siteUrl" | "createdVersions"> {
  return {
    findPublicPost: (id) => posts.findPublicPost(id),
    listPublishedPosts: (query, page, pageSize) => posts.listPublishedPosts(query, page, pageSize),
    countPublishedPosts: () => posts.countPublishedPosts(),
  };
}

const DEFAULT_SWEEP_INTERVAL_MS = 15_000;
const KV_PURGE_EVERY_SWEEPS = 240;

/**
 * This server's share of the fediverse (server/kernel/workers.ts): Fedify's queue listener, which
 * delivers, and the sweep, which compares what is public with what followers were sent.
 */
function createWorker({
  federation,
  queue,
  kv,
  sweep,
  sweepIntervalMs = DEFAULT_SWEEP_INTERVAL_MS,
  onError,
}: {
  federation: Federation<void>;
  queue: DatabaseMessageQueue;
  kv: DatabaseKvStore;
  sweep: () => Promise<SweepReport>;
  sweepIntervalMs?: number;
  onError: (error: unknown) => void;
}): PeriodicWorker {
  let controller: AbortController | undefined;
  let listening: Promise<void> | undefined;
  let sweeps = 0;
  const sweeper = periodicWorker({
    name: "fediverse delivery",
    everyMs: sweepIntervalMs,
    onError,
    runAtStart: true,
    run: async () => {
      sweeps += 1;
      await sweep().catch(onError);
      if (sweeps % KV_PURGE_EVERY_SWEEPS === 0) await kv.purgeExpired();
    },
  });

  return {
    name: sweeper.name,
    async start(): Promise<void> {
      if (controller) return;
      controller = new AbortController();
      await queue.releaseStaleClaims();
      listening = federation.startQueue(undefined, { signal: controller.signal });
      await sweeper.start();
    },
    async stop(): Promise<void> {
      if (!controller) return;
      controller.abort();
      await sweeper.stop();
      await listening;
      controller = undefined;
    },
    nudge(): Promise<void> {
      return controller ? sweeper.nudge() : Promise.resolve();
    },
  };
}
