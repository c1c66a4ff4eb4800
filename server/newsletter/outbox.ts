import type { Kysely, Transaction } from "kysely";
import { escapeXml } from "#domain/escape.ts";
import type { Dialect } from "../kernel/db/connect.ts";
import type { Database } from "../kernel/db/schema.ts";
import {
  type BatchOutcome,
  cancelSend,
  type ClaimedDelivery,
  type ClaimedSend,
  findActiveSubscriberIds,
  findClaimedSends,
  findSendProgress,
  insertPostSend,
  insertSingleSend,
  recordBatch,
  recordSent,
  type SendContent,
  type SendProgress,
  toClaimedDelivery,
} from "./repositories/email-outbox.ts";
import { newId } from "../kernel/rows.ts";
import { createDurableQueue, retryWait } from "../kernel/durable-queue.ts";
import type { Worker } from "../kernel/workers.ts";
import type { Mailer, OutgoingMessage } from "./mailer.ts";
import { MailerError } from "./mailer.ts";

export type { SendProgress } from "./repositories/email-outbox.ts";

/** Filled per recipient at send time, in the bodies and the List-Unsubscribe header. */
export const UNSUBSCRIBE_PLACEHOLDER = "{{unsubscribe_url}}";

/** Who an email says it is from (beside MAIL_FROM's address) and where replies go. */
export interface Sender {
  name: string;
  replyTo: string | undefined;
}

/** Where a reply email goes: the reader's address, unsealed at send time, and their one-click unsubscribe link. */
export interface CommentReader {
  to: string;
  unsubscribeUrl: string;
}

export interface OutboxTuning {
  /** Deliveries claimed at once; at most SMTP_RATE, so a batch takes about a second. */
  batchSize?: number;
  /** How long a claim holds before another worker may take the delivery over. */
  leaseMs?: number;
  /** How often an idle worker looks for work queued by another server or come due. */
  pollMs?: number;
  /** The first retry's wait after a temporary failure; each next one waits twice as long. */
  retryBaseMs?: number;
}

const DEFAULTS = { batchSize: 50, leaseMs: 30_000, pollMs: 2_000, retryBaseMs: 60_000 };
/** Temporary failures before a delivery is given up on: with a minute doubling, about four hours. */
const MAX_ATTEMPTS = 8;
const MAX_RETRY_MS = 60 * 60 * 1000;

/**
 * The newsletter outbox (docs/decisions/0014-newsletter-outbox.md). Enqueueing only writes rows;
 * a worker in each app server, idle while no mail server is set up (docs/decisions/0030), claims small batches with a
 * lease and records each result, so nothing waits on SMTP in a reader's request and a send
 * resumes after a crash: at most two messages per SMTP connection go out twice.
 */
export function createOutbox({
  db,
  dialect,
  now,
  unsubscribeUrl,
  readSender,
  readCommentReaders = async () => new Map(),
  tuning = {},
}: {
  db: Kysely<Database>;
  dialect: Dialect;
  now: () => Date;
  /** The one-click unsubscribe address of a subscriber, put in their post emails. */
  unsubscribeUrl: (subscriberId: string) => string;
  /** The From name and Reply-To, read for each batch so a change in Settings applies to the next. */
  readSender: () => Promise<Sender>;
  /**
   * The readers of these comments who still want reply emails (server/comment-emails); one that
   * unsubscribed, or whose comment is gone, is missing and their email is dropped.
   */
  readCommentReaders?: (commentIds: string[]) => Promise<Map<string, CommentReader>>;
  tuning?: OutboxTuning;
}) {
  const { leaseMs, pollMs, retryBaseMs, batchSize } = { ...DEFAULTS, ...tuning };
  // The deliveries (server/kernel/durable-queue.ts); a send's own row says what they carry.
  const queue = createDurableQueue({
    db,
    dialect,
    now,
    table: "email_deliveries",
    name: "newsletter outbox",
    leaseMs,
    pollMs,
  });
  const wakeWorker = queue.wake;

  async function runBatch(mailer: Mailer, limit: number): Promise<boolean> {
    const claimed = (await queue.claim(limit)).map(toClaimedDelivery);
    if (claimed.length === 0) return false;

    const sender = await readSender();
    const sends = await findClaimedSends(db, [...new Set(claimed.map((delivery) => delivery.sendId))]);
    const active = await findActiveSubscriberIds(db, postSubscriberIds(claimed, sends));
    const commentIds = [...new Set(claimed.flatMap((delivery) => (delivery.commentId ? [delivery.commentId] : [])))];
    const readers = commentIds.length > 0 ? await readCommentReaders(commentIds) : new Map<string, CommentReader>();
    const outcome: BatchOutcome = { at: "", failed: [], retry: [], dropped: [], bounced: [] };
    const deliverable = claimed.filter((delivery) => {
      const send = sends.get(delivery.sendId);
      const gone =
        (send?.kind === "post" && !(delivery.subscriberId && active.has(delivery.subscriberId))) ||
        (delivery.commentId !== null && !readers.has(delivery.commentId));
      if (!send || gone) outcome.dropped.push(delivery);
      return send && !gone;
    });

    const recordAccepted = createSentRecorder((deliveries) => recordSent(db, deliveries, now().toISOString()));
    let recordFailure: { error: unknown } | undefined;
    // One message at a time per connection of the mailer's pool, each recorded as sent while its
    // connection sends the next, and before the one after: a crash repeats at most two messages
    // per connection, those SMTP held or had just taken (docs/decisions/0014-newsletter-outbox.md).
    await queue.holding(
      deliverable.map((delivery) => delivery.id),
      async (settle) => {
        const record = (delivery: ClaimedDelivery) =>
          recordAccepted(delivery)
            // Left claimed: after its lease it goes out again, the one duplicate an outage costs.
            .catch((error: unknown) => void (recordFailure ??= { error }))
            .finally(() => settle(delivery.id));
        const inTurn = deliverable.values();
        const sendInTurn = async () => {
          let recording: Promise<void> = Promise.resolve();
          for (const delivery of inTurn) {
            try {
              await mailer.send(compose(delivery, sends.get(delivery.sendId)!, sender, readers));
            } catch (error) {
              sortFailure(outcome, delivery, error, readers);
              settle(delivery.id);
              continue;
            }
            await recording;
            recording = record(delivery);
          }
          await recording;
        };
        await Promise.all(Array.from({ length: mailer.connections }, sendInTurn));
      },
    );
    outcome.at = now().toISOString();
    await recordBatch(db, outcome);
    if (recordFailure) throw recordFailure.error;
    return true;
  }

  function sortFailure(
    outcome: BatchOutcome,
    delivery: ClaimedDelivery,
    error: unknown,
    readers: Map<string, CommentReader>,
  ): void {
    const said = error instanceof Error ? error.message : String(error);
    // SMTP's answer may quote the recipient: a reader's address is never written down in clear.
    const reader = delivery.commentId ? readers.get(delivery.commentId) : undefined;
    const message = reader ? said.replaceAll(reader.to, "<the reader's address>") : said;
    const permanent = error instanceof MailerError && error.permanent;
    if (permanent) {
      outcome.failed.push({ delivery, error: message });
      if (delivery.subscriberId) outcome.bounced.push(delivery.subscriberId);
    } else if (delivery.attempts >= MAX_ATTEMPTS) {
      outcome.failed.push({ delivery, error: message });
    } else {
      const wait = retryWait(delivery.attempts, retryBaseMs, MAX_RETRY_MS);
      outcome.retry.push({ delivery, error: message, nextAttemptAt: new Date(now().getTime() + wait).toISOString() });
    }
  }

  function compose(
    delivery: ClaimedDelivery,
    send: ClaimedSend,
    sender: Sender,
    readers: Map<string, CommentReader>,
  ): OutgoingMessage {
    const from = { fromName: sender.name, ...(sender.replyTo ? { replyTo: sender.replyTo } : {}) };
    const reader = delivery.commentId ? readers.get(delivery.commentId) : undefined;
    const recipient =
      reader ??
      (send.kind === "post" && delivery.subscriberId
        ? { to: delivery.to, unsubscribeUrl: unsubscribeUrl(delivery.subscriberId) }
        : undefined);
    if (!recipient) {
      return { ...from, to: delivery.to, subject: send.subject, html: send.html, text: send.text };
    }
    const url = recipient.unsubscribeUrl;
    return {
      ...from,
      to: recipient.to,
      subject: send.subject,
      html: send.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, escapeXml(url)),
      text: send.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, url),
      // RFC 8058: mail clients show an unsubscribe button that POSTs to the URL, no page needed.
      // No mailto: the blog reads no mailbox, so an email asking to unsubscribe would go unanswered.
      headers: {
        "List-Unsubscribe": `<${url}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    };
  }

  /** One turn of the worker; true when it sent a batch, so the next may be waiting already. */
  function createTurn(mailer: Mailer, tick?: () => Promise<unknown>): () => Promise<boolean> {
    const limit = Math.max(1, Math.min(batchSize, mailer.rate));
    let tickedAt = 0;
    return async () => {
      // No mail server yet (or its settings changed and wait for a test): what is queued waits.
      if (!(await mailer.ready())) return false;
      // Between batches too, so a post whose time comes during a long send is not kept waiting.
      if (tick && Date.now() - tickedAt >= pollMs) {
        tickedAt = Date.now();
        await tick();
      }
      return runBatch(mailer, limit);
    };
  }

  /**
   * This server's sender (server/kernel/workers.ts); `onError` hears of a batch that failed (the
   * database was away). `tick` runs every poll before the worker looks for work: it queues the
   * confirmations subscriptions asked for. Its stop lets the batch in flight finish and record
   * its results.
   */
  function worker(mailer: Mailer, onError: (error: unknown) => void, tick?: () => Promise<unknown>): Worker {
    return queue.worker(createTurn(mailer, tick), onError);
  }

  return {
    /**
     * Queues one email (a confirmation, a notice) to an address; the worker sends it soon after.
     * In the caller's transaction `trx`, the caller wakes the worker once it commits.
     */
    async enqueueSingle(
      { to, ...content }: SendContent & { to: string },
      trx?: Transaction<Database>,
    ): Promise<string> {
      const id = newId();
      await insertSingleSend(trx ?? db, { id, to: { address: to }, content, at: now().toISOString() });
      if (!trx) wakeWorker();
      return id;
    },

    /**
     * Queues one email to the reader who left an address on `commentId` (a reply to their
     * comment), in the caller's transaction: the address is read and unsealed only when it is
     * sent, with their unsubscribe link filled in (UNSUBSCRIBE_PLACEHOLDER) and List-Unsubscribe.
     */
    async enqueueToCommentReader(
      { commentId, ...content }: SendContent & { commentId: string },
      trx: Transaction<Database>,
    ): Promise<string> {
      const id = newId();
      await insertSingleSend(trx, { id, to: { commentId }, content, at: now().toISOString() });
      return id;
    },

    /**
     * Queues a post's email to every active subscriber, composed once; null when the post was
     * already sent (or is being sent): a post is emailed once in its life. In the caller's
     * transaction `trx` (a post's save), the caller wakes the worker once it commits: woken
     * before, the worker would find nothing yet.
     */
    async enqueuePostSend(
      { postId, ...content }: SendContent & { postId: string },
      trx?: Transaction<Database>,
    ): Promise<{ sendId: string; total: number } | null> {
      const id = newId();
      const at = now().toISOString();
      const created = await insertPostSend(trx ?? db, { id, postId, content, at });
      if (!created) return null;
      if (!trx) wakeWorker();
      return { sendId: id, total: created.total };
    },

    /** Sends what a committed transaction queued now, rather than at the worker's next look. */
    wake: wakeWorker,

    /** False when the send is not going out (already done or cancelled, or unknown). */
    cancel(sendId: string): Promise<boolean> {
      return cancelSend(db, sendId, now().toISOString());
    },

    progress(sendId: string): Promise<SendProgress | undefined> {
      return findSendProgress(db, sendId);
    },

    worker,

    /** Starts this server's worker at once (tests and tools; `server.ts` starts `worker` in its list). */
    start(mailer: Mailer, onError: (error: unknown) => void, tick?: () => Promise<unknown>): void {
      void worker(mailer, onError, tick).start();
    },

    /** Lets the batch in flight finish and record its results, then returns. */
    stop: queue.stop,
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

/**
 * Writes accepted messages as they come: one write at a time, and the messages accepted while it
 * runs share the next, so recording each costs no more writes than the database can take.
 * The promise of each message settles once its write committed (or failed).
 */
function createSentRecorder(write: (deliveries: ClaimedDelivery[]) => Promise<void>) {
  let waiting: { delivery: ClaimedDelivery; settle: (failure: { error: unknown } | undefined) => void }[] = [];
  let writing = false;
  async function drain() {
    writing = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      const failure = await write(group.map((entry) => entry.delivery)).then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      for (const entry of group) entry.settle(failure);
    }
    writing = false;
  }
  return (delivery: ClaimedDelivery) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ delivery, settle: (failure) => (failure ? reject(failure.error) : resolve()) });
      if (!writing) void drain();
    });
}

function postSubscriberIds(claimed: ClaimedDelivery[], sends: Map<string, ClaimedSend>): string[] {
  return claimed.flatMap((delivery) =>
    sends.get(delivery.sendId)?.kind === "post" && delivery.subscriberId ? [delivery.subscriberId] : [],
  );
}
