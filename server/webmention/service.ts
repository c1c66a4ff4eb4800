import type { Kysely } from "kysely";
import { DomainError } from "#domain/errors.ts";
import { postAddressIn, postPath } from "#domain/site-urls.ts";
import {
  DEFAULT_WEBMENTION_SETTINGS,
  EMPTY_MENTION_COUNTS,
  type MentionCounts,
  type WebmentionSettings,
  webmentionSettingsSchema,
} from "#domain/webmention.ts";
import type { Post } from "#domain/post.ts";
import type { Dialect } from "../kernel/db/connect.ts";
import type { Database } from "../kernel/db/schema.ts";
import { refuseAddressForm } from "../kernel/public-address.ts";
import type { RateLimiter, RateLimitPolicy } from "../kernel/rate-limit.ts";
import type { SettingsStore } from "../kernel/settings-store.ts";
import { createDurableQueue, retryWait } from "../kernel/durable-queue.ts";
import type { Worker, WorkerErrorReporter } from "../kernel/workers.ts";
import type { CommentService } from "../comments/index.ts";
import { findPostById, findUnmarkedArrivals, markArrival, type PostLife, type SaveWork } from "../posts/index.ts";
import { type Db, inTransaction } from "../kernel/rows.ts";
import { discoverEndpoint } from "./discovery.ts";
import { DEFAULT_FETCH_LIMITS, type FetchLimits, fetchPage, FetchRefusedError } from "./fetch-page.ts";
import * as jobs from "./repositories/webmention-jobs.ts";
import * as mentions from "./repositories/webmentions.ts";
import { hrefsOf, linksTo, readSource } from "./source.ts";

export interface WebmentionTuning {
  /** Jobs claimed at once by one server. */
  batchSize: number;
  /** How long a claim holds before another server may take the job over. */
  leaseMs: number;
  /** How often an idle worker looks for work queued by another server or come due. */
  pollMs: number;
  /** The first retry's wait after a temporary failure; each next one waits twice as long. */
  retryBaseMs: number;
}

const DEFAULT_TUNING: WebmentionTuning = { batchSize: 5, leaseMs: 60_000, pollMs: 2_000, retryBaseMs: 60_000 };
/** Temporary failures before a job is given up on: with a minute doubling, about an hour in all. */
const MAX_ATTEMPTS = 6;
/** Mentions one source host may send an hour: a blog that links every post still gets through. */
export const MENTIONS_PER_SOURCE_HOST: RateLimitPolicy = { maxHits: 60, windowMs: 60 * 60 * 1000 };

export interface WebmentionServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  now: () => Date;
  /** SITE_URL: the blog's own pages, which a mention must name and a post never notifies. */
  siteUrl: string;
  comments: CommentService;
  /** The fediverse's blocked list (domains and their subdomains), which mentions obey too. */
  isBlocked: (url: URL) => Promise<boolean>;
  limiter: RateLimiter;
  settingsStore: SettingsStore;
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS (test servers only): pages on private addresses may be fetched. */
  allowPrivateAddress?: boolean;
  fetchLimits?: Partial<Omit<FetchLimits, "allowPrivateAddress">>;
  tuning?: Partial<WebmentionTuning>;
}

/** Why a mention was refused at the door, in plain words for the sender. */
function refuse(message: string): never {
  throw new DomainError("WEBMENTION_REFUSED", message);
}

function httpUrl(value: string, name: string): URL {
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) refuse(`The ${name} must be an http(s) URL.`);
  return url;
}

/** The external http(s) addresses a post's body links (its `<a href>`s), once each, without fragments. */
function linkedAddresses(contentHtml: string, siteUrl: string): string[] {
  const own = new URL(siteUrl).origin;
  return [
    ...new Set(
      hrefsOf(contentHtml).flatMap((href) => {
        if (!URL.canParse(href)) return [];
        const url = new URL(href);
        url.hash = "";
        return (url.protocol === "http:" || url.protocol === "https:") && url.origin !== own ? [url.href] : [];
      }),
    ),
  ];
}

/**
 * Webmention both ways (docs/decisions/0026-webmention.md). A mention sent to the blog is checked
 * at the door and queued; the queue's worker, on every app server, fetches the source, keeps what
 * it says (a reply becomes a held comment, the rest are counted) or forgets it when the page is
 * gone or no longer links the post. A post that becomes public or changes while public queues a
 * notice to each page it links, and to each it stopped linking; the worker discovers each page's
 * endpoint and posts to it.
 */
export function createWebmentionService({
  db,
  dialect,
  now,
  siteUrl,
  comments,
  isBlocked,
  limiter,
  settingsStore,
  allowPrivateAddress = false,
  fetchLimits = {},
  tuning = {},
}: WebmentionServiceDeps) {
  const { batchSize, leaseMs, pollMs, retryBaseMs } = { ...DEFAULT_TUNING, ...tuning };
  const limits: FetchLimits = { ...DEFAULT_FETCH_LIMITS, ...fetchLimits, allowPrivateAddress };
  const site = new URL(siteUrl);
  const storedSettings = settingsStore.define({
    key: "webmention",
    schema: webmentionSettingsSchema,
    defaults: DEFAULT_WEBMENTION_SETTINGS,
  });
  const queue = createDurableQueue({ db, dialect, now, table: "webmention_jobs", name: "webmention", leaseMs, pollMs });
  const wakeWorker = queue.wake;

  /** The post a target names, when it is a public post of this blog; undefined otherwise. */
  async function postIdOf(target: URL): Promise<string | undefined> {
    if (target.origin !== site.origin) return undefined;
    const address = postAddressIn(target.pathname);
    if (address === undefined) return undefined;
    return mentions.findPublicPostIdAt(db, address, now().toISOString());
  }

  async function forget(postId: string, source: string): Promise<void> {
    await mentions.deleteMention(db, postId, source);
    await comments.removeMentionReply(source);
  }

  async function verify(job: jobs.ClaimedJob): Promise<"done" | string> {
    const postId = await postIdOf(new URL(job.target));
    if (postId === undefined) return "the target is no longer a public post";
    if (await isBlocked(new URL(job.source))) return "the source's domain is blocked";
    const page = await fetchPage(job.source, limits);
    if (page.status === 404 || page.status === 410) {
      await forget(postId, job.source);
      return "done";
    }
    if (page.status < 200 || page.status >= 300)
      throw new FetchRefusedError(`the source answered ${page.status}`, false);
    if (!linksTo(page.body, page.url, job.target)) {
      await forget(postId, job.source);
      return "done";
    }
    const reading = readSource(page.body, page.url, job.target);
    const authorUrl = new URL(reading.author.url);
    const reply =
      reading.kind === "reply"
        ? await comments.receiveMentionReply({
            postId,
            source: job.source,
            remoteAuthor: { handle: authorUrl.host, url: authorUrl.href },
            authorName: reading.author.name,
            contentHtml: reading.contentHtml,
            published: reading.published,
          })
        : undefined;
    if (reading.kind !== "reply") await comments.removeMentionReply(job.source);
    await mentions.saveMention(db, {
      postId,
      source: job.source,
      kind: reading.kind,
      authorName: reading.author.name ?? authorUrl.host,
      authorUrl: authorUrl.href,
      commentId: reply?.commentId ?? null,
      at: now().toISOString(),
    });
    return "done";
  }

  async function send(job: jobs.ClaimedJob): Promise<"done" | string> {
    const target = await fetchPage(job.target, limits);
    if (target.status >= 500) throw new FetchRefusedError(`the linked page answered ${target.status}`, false);
    const endpoint = discoverEndpoint(target);
    if (endpoint === undefined) return "done";
    const answer = await fetchPage(endpoint, limits, { source: job.source, target: job.target });
    if (answer.status >= 200 && answer.status < 300) return "done";
    if (answer.status >= 500 || answer.status === 429) {
      throw new FetchRefusedError(`the endpoint answered ${answer.status}`, false);
    }
    return `the endpoint refused it (${answer.status})`;
  }

  async function work(job: jobs.ClaimedJob): Promise<void> {
    const settings = await storedSettings.read();
    try {
      const switchedOff = job.direction === "send" ? !settings.send : !settings.receive;
      const result = switchedOff ? "done" : await (job.direction === "send" ? send(job) : verify(job));
      const at = now().toISOString();
      await jobs.finishJob(db, job, result === "done" ? { state: "done", at } : { state: "failed", at, error: result });
    } catch (error) {
      // A page that cannot be fetched is tried again later; anything else (a bug, the database
      // away) too, and is reported, so a job that always fails ends failed instead of looping.
      const at = now();
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof FetchRefusedError && error.permanent;
      if (permanent || job.attempts >= MAX_ATTEMPTS) {
        await jobs.finishJob(db, job, { state: "failed", at: at.toISOString(), error: message });
      } else {
        const nextAttemptAt = new Date(at.getTime() + retryWait(job.attempts, retryBaseMs)).toISOString();
        await queue.retryLater(job.id, { nextAttemptAt, error: message });
      }
      if (!(error instanceof FetchRefusedError)) throw error;
    }
  }

  /** One turn of the worker: a batch claimed and worked, each job recorded as it ends, so a crash repeats only those in flight. */
  async function turn(): Promise<boolean> {
    const claimed = (await queue.claim(batchSize)).map(jobs.toClaimedJob);
    if (claimed.length === 0) return false;
    await queue.holding(
      claimed.map((job) => job.id),
      (settle) => Promise.all(claimed.map((job) => work(job).finally(() => settle(job.id)))),
    );
    return true;
  }

  /**
   * Queues notices to every page the post links, and to those it linked before and no longer
   * does, with the post's mark, in `trx`; `onlyIfDue` (its scheduled time came) does it only
   * when no other server did. True when it queued anything.
   */
  async function queueNoticesIn(trx: Db, post: Post, onlyIfDue: boolean): Promise<boolean> {
    const source = new URL(postPath(post.slug), site).href;
    const linked = post.webmentionsOff ? [] : linkedAddresses(post.contentHtml, siteUrl);
    const at = now().toISOString();
    if (!(await markArrival(trx, "webmentions_queued_at", post.id, at, onlyIfDue))) return false;
    const before = await jobs.listSentTargets(trx, source);
    const dropped = before.filter((target) => !linked.includes(target));
    await jobs.requestJobs(
      trx,
      [
        ...linked.map((target) => ({ direction: "send" as const, source, target, linked: true })),
        ...dropped.map((target) => ({ direction: "send" as const, source, target, linked: false })),
      ],
      at,
    );
    return linked.length + dropped.length > 0;
  }

  /**
   * A save's notices, queued in the save's own transaction (PostLife `inSave`), so a save that
   * committed has its notices queued whatever becomes of this process; the settings are read
   * before the transaction opens.
   */
  async function noticesWithSave(): Promise<SaveWork | undefined> {
    if (!(await storedSettings.read()).send) return undefined;
    let queued = false;
    return {
      run: async (post, trx) => {
        queued = await queueNoticesIn(trx, post, false);
        return post;
      },
      afterCommit: () => {
        if (queued) wakeWorker();
      },
    };
  }

  /** Scheduled posts whose time came (in the last week) and that no server announced yet. */
  async function announceArrivedPosts(): Promise<void> {
    for (const id of await findUnmarkedArrivals(db, "webmentions_queued_at", now())) {
      const post = await findPostById(db, id);
      if (!post || !(await storedSettings.read()).send) continue;
      if (await inTransaction(db, (trx) => queueNoticesIn(trx, post, true))) wakeWorker();
    }
  }

  return {
    /** The settings, read from the database at most once a second. */
    settings(): Promise<WebmentionSettings> {
      return storedSettings.read();
    },

    async saveSettings(values: WebmentionSettings): Promise<void> {
      await storedSettings.save(values);
    },

    /**
     * A mention sent to the endpoint: checked (two http(s) URLs, the target a public post here,
     * the source on a public address, within its host's budget) and queued for the worker; a
     * source whose domain is blocked is taken and dropped, so it learns nothing. Throws
     * WEBMENTION_REFUSED (400) or RATE_LIMITED (429).
     */
    async receive(input: { source: string; target: string }): Promise<void> {
      const source = httpUrl(input.source, "source");
      const target = httpUrl(input.target, "target");
      if (source.href === target.href) refuse("The source and the target must be different pages.");
      if (!(await storedSettings.read()).receive) refuse("This blog does not take Webmentions.");
      if ((await postIdOf(target)) === undefined) refuse("The target is not a published post on this blog.");
      const refusal = allowPrivateAddress ? undefined : refuseAddressForm(source.href);
      if (refusal !== undefined) refuse(`The source cannot be fetched: ${refusal}.`);
      await limiter.consume(`webmention:${source.hostname.toLowerCase()}`, MENTIONS_PER_SOURCE_HOST);
      if (await isBlocked(source)) return;
      await jobs.requestJobs(
        db,
        [{ direction: "receive", source: source.href, target: target.href, linked: true }],
        now().toISOString(),
      );
      wakeWorker();
    },

    /** Mentions per post by kind, for the writer, beside the fediverse's counts. */
    async countsFor(postIds: readonly string[]): Promise<Map<string, MentionCounts>> {
      const ids = [...new Set(postIds)];
      const counts = await mentions.countMentions(db, ids);
      return new Map(ids.map((id) => [id, { ...EMPTY_MENTION_COUNTS, ...counts.get(id) }]));
    },

    /** A post's newest mentions (at most 20), for its editor. */
    async listForPost(postId: string) {
      const rows = await mentions.listMentions(db, postId, 20);
      return rows.map((row) => ({
        source: row.source,
        kind: row.kind,
        authorName: row.author_name,
        authorUrl: row.author_url,
        updatedAt: row.updated_at,
      }));
    },

    /**
     * What follows from a post's life: becoming public or changing while public queues its
     * notices once the save committed (server/posts/service.ts PostLife). A failure to queue is
     * the caller's to hear; the save itself stands.
     */
    postLife(onError: WorkerErrorReporter): PostLife {
      // A restored revision is written without a save: its notices are queued once it
      // committed, in a transaction of their own.
      const queueAfterRestore = (post: Post) => {
        void (async () => {
          if (!(await storedSettings.read()).send) return;
          if (await inTransaction(db, (trx) => queueNoticesIn(trx, post, false))) wakeWorker();
        })().catch(onError);
      };
      return {
        // A scheduled post has no save when its time comes: every server's clock looks, and the
        // post's mark (webmentions_queued_at) lets one of them queue its notices.
        becamePublic: {
          inSave: noticesWithSave,
          withoutSave: queueAfterRestore,
          byClock: (arrived) => (arrived ? announceArrivedPosts() : Promise.resolve()),
        },
        changedWhilePublic: { inSave: noticesWithSave, withoutSave: queueAfterRestore },
      };
    },

    /** This server's worker (server/kernel/workers.ts): verifies received mentions and sends the blog's. */
    worker(onError: WorkerErrorReporter): Worker {
      return queue.worker(turn, onError);
    },
  };
}

export type WebmentionService = ReturnType<typeof createWebmentionService>;
