import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { DomainError } from "#domain/errors.ts";
import { z } from "#domain/zod.ts";
import type { Post } from "#domain/post.ts";
import { absoluteUrl, postPath } from "#domain/site-urls.ts";
import {
  type NewWebhook,
  type WebhookEvent,
  WEBHOOK_EVENTS,
  type WebhookInput,
  WEBHOOKS_MAX,
  type WebhookSummary,
} from "#domain/webhooks.ts";
import type { Actor, AuditLog } from "../accounts/index.ts";
import type { CommentLife, CommentMoment } from "../comments/index.ts";
import type { Dialect } from "../kernel/db/connect.ts";
import type { Database } from "../kernel/db/schema.ts";
import { createDurableQueue, retryWait } from "../kernel/durable-queue.ts";
import { refuseAddress } from "../kernel/public-address.ts";
import { type Db, inTransaction, newId } from "../kernel/rows.ts";
import { createSecretBox } from "../kernel/secret-box.ts";
import type { SettingsStore } from "../kernel/settings-store.ts";
import type { Worker, WorkerErrorReporter } from "../kernel/workers.ts";
import { findPostById, findUnmarkedArrivals, markArrival, type PostLife, type PostLifeHook } from "../posts/index.ts";
import * as rows from "./repositories/webhooks.ts";
import { CallFailedError, postJson, signatureHeaders } from "./send.ts";

export interface WebhookTuning {
  /** Deliveries claimed at once by one server. */
  batchSize: number;
  /** How long a claim holds before another server may take the delivery over. */
  leaseMs: number;
  /** How often an idle worker looks for deliveries queued by another server or come due. */
  pollMs: number;
  /** The first retry's wait; each next one waits twice as long, at most an hour. */
  retryBaseMs: number;
  /** Tries before a delivery is given up on. */
  maxAttempts: number;
  /** The longest a receiver may take to answer. */
  timeoutMs: number;
}

/** How long a finished delivery is kept: long enough to look into a month of calls. */
export const DELIVERIES_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** Eight tries a minute apart and doubling: a receiver down for about two hours still gets the event. */
const DEFAULT_TUNING: WebhookTuning = {
  batchSize: 10,
  leaseMs: 60_000,
  pollMs: 2_000,
  retryBaseMs: 60_000,
  maxAttempts: 8,
  timeoutMs: 10_000,
};
const MAX_RETRY_MS = 60 * 60 * 1000;

export interface WebhookServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  now: () => Date;
  audit: AuditLog;
  settingsStore: SettingsStore;
  /** The server's secret, under which signing secrets are sealed (each server must open them). */
  serverSecret: string;
  /** SITE_URL: where the posts a body names are read. */
  siteUrl: string;
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS (test servers only): receivers on private addresses may be called. */
  allowPrivateAddress?: boolean;
  tuning?: Partial<WebhookTuning>;
}

/** Why a URL was refused when saved, said plainly. */
function refuse(message: string): never {
  throw new DomainError("WEBHOOK_REFUSED", message);
}

/**
 * Webhooks (issue 37, docs/decisions/0035-webhooks.md): the owner gives a URL per event; each
 * change of that kind queues a signed JSON body for it in the change's own transaction, and the
 * worker on every app server delivers it through the kernel's durable queue, trying again with
 * a doubling wait and giving up after `maxAttempts`, the last reason kept for Settings → Webhooks.
 */
export function createWebhookService({
  db,
  dialect,
  now,
  audit,
  settingsStore,
  serverSecret,
  siteUrl,
  allowPrivateAddress = false,
  tuning = {},
}: WebhookServiceDeps) {
  const { batchSize, leaseMs, pollMs, retryBaseMs, maxAttempts, timeoutMs } = { ...DEFAULT_TUNING, ...tuning };
  const box = createSecretBox(serverSecret, "webhook-secrets");
  // Which events have a webhook, cached like settings: a change or a comment reads the webhooks
  // only when its event has one, so the blog without webhooks pays no statement for them.
  const eventsInUse = settingsStore.define({
    key: "webhook-events",
    schema: z.object({ events: z.array(z.enum(WEBHOOK_EVENTS)) }),
    defaults: { events: [] },
    record: rows.webhookEventsRecord(db),
    // Nothing a reader sees: the page cache keeps its pages.
    isChange: () => false,
  });
  const wanted = async (event: WebhookEvent) => (await eventsInUse.read()).events.includes(event);
  const queue = createDurableQueue({
    db,
    dialect,
    now,
    table: "webhook_deliveries",
    name: "webhooks",
    leaseMs,
    pollMs,
  });

  /** Queues `event` with `data` for every webhook of it, in `trx`; true when any was queued. */
  async function enqueueIn(trx: Db, event: WebhookEvent, data: Record<string, unknown>): Promise<boolean> {
    const hooks = await rows.findWebhookIdsFor(trx, event);
    const createdAt = now().toISOString();
    await rows.insertDeliveries(
      trx,
      // Each body its own id, so a receiver that got it twice (a worker died as it answered) can tell.
      hooks.map((webhookId) => ({ webhookId, event, body: JSON.stringify({ id: newId(), event, createdAt, data }) })),
      createdAt,
    );
    return hooks.length > 0;
  }

  function postData(post: Post) {
    return {
      post: {
        id: post.id,
        title: post.title,
        slug: post.slug,
        url: absoluteUrl(siteUrl, postPath(post.slug)),
        excerpt: post.excerpt,
        published: post.published,
        publishAt: post.publishAt,
        updatedAt: post.updatedAt,
      },
    };
  }

  function commentData(comment: CommentMoment) {
    return {
      comment: {
        id: comment.id,
        author: comment.author,
        content: comment.content,
        status: comment.status,
        parentId: comment.parentId,
        createdAt: comment.createdAt,
      },
      post: { id: comment.postId, title: comment.postTitle, url: absoluteUrl(siteUrl, postPath(comment.postSlug)) },
    };
  }

  /**
   * A post's event, in `trx`. `post.published` also marks the post (server/posts/repositories/
   * arrivals.ts), so the clock's look below does not announce a post a save already did.
   */
  async function enqueuePostIn(trx: Db, event: WebhookEvent, post: Post): Promise<boolean> {
    if (event === "post.published") await markArrival(trx, "webhooks_announced_at", post.id, now().toISOString());
    return enqueueIn(trx, event, postData(post));
  }

  /**
   * Scheduled posts whose time came with no save (PostLife `byClock`): every server's clock
   * looks, and the post's mark lets exactly one of them queue `post.published`, in the
   * transaction that claims it.
   */
  async function announceArrivedPosts(): Promise<void> {
    if (!(await wanted("post.published"))) return;
    for (const id of await findUnmarkedArrivals(db, "webhooks_announced_at", now())) {
      const post = await findPostById(db, id);
      if (!post) continue;
      const queued = await inTransaction(
        db,
        async (trx) =>
          (await markArrival(trx, "webhooks_announced_at", id, now().toISOString(), true)) &&
          enqueueIn(trx, "post.published", postData(post)),
      );
      if (queued) queue.wake();
    }
  }

  /**
   * A post moment's hook: queued in the save's transaction when a webhook wants the event (read
   * before the transaction opens); a restore or a delete, which has no save, queues it in a
   * transaction of its own once it committed.
   */
  function postHook(event: WebhookEvent, onError: WorkerErrorReporter): PostLifeHook {
    return {
      inSave: async () => {
        if (!(await wanted(event))) return undefined;
        let queued = false;
        return {
          run: async (post, trx) => {
            queued = await enqueuePostIn(trx, event, post);
            return post;
          },
          afterCommit: () => {
            if (queued) queue.wake();
          },
        };
      },
      withoutSave: (post) => {
        void (async () => {
          if (!(await wanted(event))) return;
          if (await inTransaction(db, (trx) => enqueuePostIn(trx, event, post))) queue.wake();
        })().catch(onError);
      },
    };
  }

  /** The answer of a call, or its failure, as the owner reads it. */
  function describeAnswer(status: number, excerpt: string): string {
    const said = excerpt.trim() === "" ? "" : `: “${excerpt.trim().slice(0, 80)}”`;
    return `the receiver answered ${status}${said}`;
  }

  async function deliver(delivery: rows.ClaimedDelivery, target: { url: string; secret: string } | undefined) {
    const at = now();
    const attempts = Number(delivery.attempts);
    const secret = target && box.open(target.secret);
    let failure: { error: string; permanent: boolean; status: number | null; excerpt: string | null };
    if (!target) return; // Its webhook was removed as it was claimed; the delete took the row too.
    if (secret === undefined) {
      failure = {
        error: "its secret cannot be opened (the server's secret changed): remove the webhook and add it again",
        permanent: true,
        status: null,
        excerpt: null,
      };
    } else {
      try {
        const answer = await postJson(
          target.url,
          delivery.body,
          { ...signatureHeaders(secret, delivery.body, at), "x-inkwell-event": delivery.event },
          { allowPrivateAddress, timeoutMs },
        );
        if (answer.status >= 200 && answer.status < 300) {
          await rows.finishDelivery(db, Number(delivery.id), {
            state: "delivered",
            at: now().toISOString(),
            error: null,
            status: answer.status,
            excerpt: answer.excerpt,
          });
          return;
        }
        failure = {
          error: describeAnswer(answer.status, answer.excerpt),
          permanent: false,
          status: answer.status,
          excerpt: answer.excerpt,
        };
      } catch (error) {
        if (!(error instanceof CallFailedError)) throw error;
        failure = { error: error.message, permanent: error.permanent, status: null, excerpt: null };
      }
    }
    if (failure.permanent || attempts >= maxAttempts) {
      const tries = attempts === 1 ? "1 try" : `${attempts} tries`;
      await rows.finishDelivery(db, Number(delivery.id), {
        state: "failed",
        at: now().toISOString(),
        error: failure.permanent ? `Not sent: ${failure.error}.` : `Gave up after ${tries}: ${failure.error}.`,
        status: failure.status,
        excerpt: failure.excerpt,
      });
      return;
    }
    const wait = retryWait(attempts, retryBaseMs, MAX_RETRY_MS);
    await queue.retryLater(Number(delivery.id), {
      nextAttemptAt: new Date(now().getTime() + wait).toISOString(),
      error: `Trying again (${attempts} of ${maxAttempts} tries so far): ${failure.error}.`,
    });
  }

  /** One turn of the worker: a batch claimed and each delivery recorded as it ends, so a crash repeats only those in flight. */
  async function turn(): Promise<boolean> {
    const claimed = await queue.claim(batchSize);
    if (claimed.length === 0) return false;
    const targets = await rows.findTargets(db, [...new Set(claimed.map((delivery) => delivery.webhook_id))]);
    await queue.holding(
      claimed.map((delivery) => Number(delivery.id)),
      (settle) =>
        Promise.all(
          claimed.map((delivery) =>
            deliver(delivery, targets.get(delivery.webhook_id)).finally(() => settle(Number(delivery.id))),
          ),
        ),
    );
    return true;
  }

  return {
    /** Every webhook with how its last call went; never a secret. */
    async list(): Promise<WebhookSummary[]> {
      const hooks = await rows.listWebhooks(db);
      return hooks.map((hook) => ({
        id: hook.id,
        event: hook.event,
        url: hook.url,
        createdAt: hook.created_at,
        lastDelivery: hook.lastDelivery && {
          state: hook.lastDelivery.state,
          attempts: Number(hook.lastDelivery.attempts),
          lastError: hook.lastDelivery.last_error,
          at: hook.lastDelivery.finished_at ?? hook.lastDelivery.created_at,
        },
      }));
    },

    /**
     * A URL for `event`: refused when it is on this machine or a private network, now or by what
     * its name resolves to (checked again at each call). Its secret is answered this once.
     */
    async create(actor: Actor, input: WebhookInput): Promise<NewWebhook> {
      const url = new URL(input.url).href;
      const refusal = allowPrivateAddress ? undefined : await refuseAddress(url);
      if (refusal !== undefined) refuse(`That URL cannot be called: ${refusal}.`);
      if ((await rows.countWebhooks(db)) >= WEBHOOKS_MAX) {
        refuse(`The blog keeps at most ${WEBHOOKS_MAX} webhooks: remove one first.`);
      }
      const secret = `whsec_${randomBytes(32).toString("base64url")}`;
      await rows.insertWebhook(db, {
        id: newId(),
        event: input.event,
        url,
        secret: box.seal(secret),
        createdAt: now().toISOString(),
      });
      await audit.record(actor, "settings-changed", `webhook added: ${input.event} → ${url}`);
      await eventsInUse.readFresh();
      return { event: input.event, url, secret };
    },

    /** Removes a webhook and what it still had queued. Throws WEBHOOK_NOT_FOUND. */
    async remove(actor: Actor, id: string): Promise<void> {
      if (!(await rows.deleteWebhook(db, id))) {
        throw new DomainError("WEBHOOK_NOT_FOUND", "That webhook no longer exists.");
      }
      await audit.record(actor, "settings-changed", "webhook removed");
      await eventsInUse.readFresh();
    },

    /** Deletes deliveries that ended more than DELIVERIES_KEPT_MS ago (housekeeping), each webhook's newest kept. */
    async purgeFinished(): Promise<number> {
      return rows.deleteFinishedDeliveries(db, new Date(now().getTime() - DELIVERIES_KEPT_MS).toISOString());
    },

    /** Every delivery of a webhook (tests). */
    deliveries(webhookId: string) {
      return rows.listDeliveries(db, webhookId);
    },

    /** A post's moments (server/posts/service.ts PostLife), each queued with the change that made it. */
    postLife(onError: WorkerErrorReporter): PostLife {
      return {
        becamePublic: {
          ...postHook("post.published", onError),
          byClock: (arrived) => (arrived ? announceArrivedPosts() : Promise.resolve()),
        },
        changedWhilePublic: postHook("post.updated", onError),
        stoppedBeingPublic: postHook("post.unpublished", onError),
      };
    },

    /** A comment taken (server/comments CommentLife): queued in the transaction that stores it. */
    commentLife: {
      async prepare() {
        if (!(await wanted("comment.received"))) return undefined;
        let queued = false;
        return {
          taken: async (comment: CommentMoment, trx: Transaction<Database>) => {
            queued = (await enqueueIn(trx, "comment.received", commentData(comment))) || queued;
          },
          afterCommit: () => {
            if (queued) queue.wake();
          },
        };
      },
    } satisfies CommentLife,

    /** This server's worker (server/kernel/workers.ts): delivers its share of the queue. */
    worker(onError: WorkerErrorReporter): Worker {
      return queue.worker(turn, onError);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
