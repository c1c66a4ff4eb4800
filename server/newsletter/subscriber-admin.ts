// The owner's side of the newsletter list (the Subscribers screen): counts, pages, one address
// added or removed, and the list in and out as CSV. Readers' own subscribing is subscriptions.ts.
import { daysBefore } from "#domain/dashboard.ts";
import { setImmediate } from "node:timers/promises";
import type { Kysely } from "kysely";
import { DomainError, isDomainError } from "#domain/errors.ts";
import type { Subscriber, SubscriberState } from "#domain/newsletter.ts";
import {
  type AddSubscriberInput,
  SUBSCRIBER_EXISTS_MESSAGE,
  SUBSCRIBER_IMPORT_RUNNING_MESSAGE,
  SUBSCRIBERS_PAGE_SIZE,
  type SubscriberImportStatus,
} from "#domain/subscribers.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { Worker } from "../kernel/workers.ts";
import { inTransaction, newId } from "../kernel/rows.ts";
import * as imports from "./repositories/subscriber-imports.ts";
import * as subscribers from "./repositories/subscribers.ts";
import {
  readSubscriberCsv,
  SUBSCRIBER_CSV_COLUMNS,
  type SubscriberCsvSource,
  subscriberCsvLine,
} from "./subscriber-csv.ts";

/** Rows per query while exporting: memory stays flat. */
const BATCH = 500;
/**
 * Rows per transaction while importing; between two, the import waits for the event loop. On
 * SQLite a transaction holds the one connection, so this is the longest a reader waits: about
 * 0.1 s once the list is 500,000 long.
 */
const IMPORT_BATCH = 500;

/** A running import's heartbeat older than this means its server stopped without saying so. */
const IMPORT_STALE_MS = 60_000;

/** Why an import stopped short of its end: its server is stopping, or a newer import took its place. */
class ImportInterrupted extends Error {}

/** What the writer reads of a failure: the database's or the file's in words, a bug only as such. */
function failureReason(error: unknown): string {
  if (isDomainError(error, "DATABASE_UNAVAILABLE")) return "The database could not be reached.";
  if (isDomainError(error)) return `${error.message.replace(/\.$/, "")}.`;
  return "An error on the server stopped it; the server's log says which.";
}

/** The screen's view of the record: a running import whose heartbeat is a minute old lost its server. */
function toImportStatus(record: imports.SubscriberImportRecord, now: Date): SubscriberImportStatus {
  const { rowsRead, added, alreadyListed, notSubscribed, invalid } = record.progress;
  switch (record.state) {
    case "running":
      return Date.parse(record.heartbeatAt) < now.getTime() - IMPORT_STALE_MS
        ? { state: "stopped", rowsRead }
        : { state: "running", rowsRead, startedBy: record.startedBy, startedAt: record.startedAt };
    case "stopped":
      return { state: "stopped", rowsRead };
    case "failed":
      return { state: "failed", rowsRead, reason: record.failure ?? "" };
    case "finished": {
      const named = record.invalidLines;
      return {
        state: "finished",
        report: {
          state: record.newState,
          added,
          alreadyListed,
          notSubscribed,
          invalid: named,
          ...(invalid > named.length ? { moreInvalid: invalid - named.length } : {}),
        },
        startedBy: record.startedBy,
        finishedAt: record.finishedAt ?? record.heartbeatAt,
      };
    }
  }
}

export function createSubscriberAdmin({ db, now }: { db: Kysely<Database>; now: () => Date }) {
  const running = new Set<Promise<SubscriberImportStatus>>();
  const stopping = new AbortController();
  async function stop(): Promise<void> {
    stopping.abort();
    await Promise.all(running);
  }

  /**
   * The import itself: IMPORT_BATCH rows a transaction, with the record's counts and heartbeat in
   * the same transaction, so what the screen says was read is what was added; between batches it
   * waits for the event loop, so readers' requests are never held up and memory holds one batch.
   * Should the database fail midway, the batches before stay, and the same file again adds the rest.
   */
  async function runImport(
    source: SubscriberCsvSource,
    {
      runId,
      newState,
      startedBy,
      startedAt,
      onError,
      afterwards,
    }: Pick<imports.SubscriberImportRecord, "runId" | "newState" | "startedBy" | "startedAt"> & {
      onError: (error: unknown) => void;
      afterwards?: () => Promise<void>;
    },
  ): Promise<SubscriberImportStatus> {
    let progress: imports.SubscriberImportProgress = {
      rowsRead: 0,
      added: 0,
      alreadyListed: 0,
      notSubscribed: 0,
      invalid: 0,
    };
    // Named once the import has ended; a screen shows only the rows read of one cut short.
    let invalidLines: { line: number; value: string }[] = [];
    let end: Pick<imports.SubscriberImportRecord, "state" | "failure">;
    try {
      const read = await readSubscriberCsv(source, {
        batchSize: IMPORT_BATCH,
        onBatch: async (emails, counts) => {
          if (stopping.signal.aborted) throw new ImportInterrupted("The server is stopping");
          await inTransaction(db, async (trx) => {
            const batchAdded = await subscribers.insertSubscribers(
              trx,
              emails.map((email) => ({
                email,
                state: newState,
                source: "import",
                created_at: startedAt,
                confirmed_at: newState === "active" ? startedAt : null,
              })),
            );
            const next = {
              rowsRead: counts.rows,
              added: progress.added + batchAdded,
              alreadyListed: counts.addresses - progress.added - batchAdded,
              notSubscribed: counts.notSubscribed,
              invalid: counts.invalid.length + counts.moreInvalid,
            };
            if (!(await imports.recordSubscriberImportProgress(trx, runId, next, now().toISOString()))) {
              throw new ImportInterrupted("Another import took this one's place");
            }
            progress = next;
          });
          await setImmediate();
        },
      });
      invalidLines = read.invalid;
      end = { state: "finished", failure: undefined };
    } catch (error) {
      if (error instanceof ImportInterrupted) end = { state: "stopped", failure: undefined };
      else {
        onError(error);
        end = { state: "failed", failure: failureReason(error) };
      }
    }
    // The upload goes first, so a screen that says the import ended never finds its file left.
    await afterwards?.().catch(onError);
    const endedAt = now().toISOString();
    const record: imports.SubscriberImportRecord = {
      ...end,
      runId,
      newState,
      startedBy,
      startedAt,
      heartbeatAt: endedAt,
      finishedAt: endedAt,
      progress,
      invalidLines,
    };
    await imports.endSubscriberImport(db, record).catch(onError);
    return toImportStatus(record, now());
  }

  return {
    /** The counts of every state, and one page of a state's subscribers, newest first. */
    async listPage({
      state,
      search,
      after,
    }: {
      state: SubscriberState;
      search?: string;
      after?: subscribers.SubscriberCursor;
    }): Promise<{ counts: Record<SubscriberState, number>; page: subscribers.SubscriberPage }> {
      return {
        counts: await subscribers.countSubscribersByState(db),
        page: await subscribers.listSubscribers(db, { state, search, after, limit: SUBSCRIBERS_PAGE_SIZE }),
      };
    },

    /** The dashboard's figure: subscribers active now who joined in the last `days` days. */
    async countNew(days: number): Promise<number> {
      return subscribers.countActiveSubscribersSince(db, daysBefore(now(), days));
    },

    /**
     * An address its owner asked the writer to add: active at once, source 'admin'. An address on
     * the list already is left as it is (an unsubscription stands), and the writer is told its state.
     */
    async add({ email }: AddSubscriberInput): Promise<void> {
      const at = now().toISOString();
      const added = await subscribers.insertSubscribers(db, [
        { email, state: "active", source: "admin", created_at: at, confirmed_at: at },
      ]);
      if (added > 0) return;
      const existing = await subscribers.findSubscriberByEmail(db, email);
      throw new DomainError(
        "SUBSCRIBER_EXISTS",
        `${SUBSCRIBER_EXISTS_MESSAGE}${existing ? ` (${existing.state})` : ""}.`,
      );
    },

    /** Deletes the subscriber for good, for a data-protection request; removing one already gone is no error. */
    async remove(id: string): Promise<void> {
      await subscribers.deleteSubscriber(db, id);
    },

    /**
     * A CSV's addresses join the list: `consent` (they agreed to this newsletter) makes them
     * active, otherwise pending, and nobody is emailed either way. Addresses on the list already
     * (in any case) keep their state. The file is read here once, only to check it, so one it
     * cannot read is refused and adds nothing; then, when no other import runs (IMPORT_RUNNING
     * otherwise), the import is recorded and goes on in the background: the caller answers at
     * once, and any app server's screen reads its progress (`importStatus`). `afterwards` runs
     * once it has ended, however it ended; `finished` settles then, with how it ended.
     */
    async startImport(
      source: SubscriberCsvSource,
      options: {
        consent: boolean;
        startedBy: string;
        /** Why an import failed, for the server's log. */
        onError: (error: unknown) => void;
        afterwards?: () => Promise<void>;
      },
    ): Promise<{ finished: Promise<SubscriberImportStatus> }> {
      await readSubscriberCsv(source, { batchSize: IMPORT_BATCH, onBatch: () => setImmediate() });
      const runId = newId();
      const at = now();
      const newState = options.consent ? "active" : "pending";
      const claimed = await imports.claimSubscriberImport(db, {
        runId,
        newState,
        startedBy: options.startedBy,
        now: at.toISOString(),
        staleBefore: new Date(at.getTime() - IMPORT_STALE_MS).toISOString(),
      });
      if (!claimed) throw new DomainError("IMPORT_RUNNING", SUBSCRIBER_IMPORT_RUNNING_MESSAGE);
      const finished = runImport(source, {
        runId,
        newState,
        startedBy: options.startedBy,
        startedAt: at.toISOString(),
        onError: options.onError,
        afterwards: options.afterwards,
      });
      running.add(finished);
      void finished.finally(() => running.delete(finished));
      return { finished };
    },

    /** Where the latest import stands; one whose server has gone silent for a minute reads as stopped. */
    async importStatus(): Promise<SubscriberImportStatus | undefined> {
      const record = await imports.findSubscriberImport(db);
      if (!record) return undefined;
      return toImportStatus(record, now());
    },

    /** Stops the imports this server runs at their next batch, recorded as stopped, and waits for them (shutdown). */
    stop,

    /** The imports this server runs, among its workers: each starts with an upload and ends at `stop`. */
    worker: { name: "subscriber import", start: async () => {}, stop } satisfies Worker,

    /** The whole list as CSV (email, state, created_at, confirmed_at), oldest first, a page at a time. */
    async *exportCsv(): AsyncGenerator<string> {
      yield `${SUBSCRIBER_CSV_COLUMNS.join(",")}\r\n`;
      let after: subscribers.SubscriberCursor | undefined;
      for (;;) {
        const page: Subscriber[] = await subscribers.listSubscribersForExport(db, { after, limit: BATCH });
        if (page.length > 0) yield page.map(subscriberCsvLine).join("");
        const last = page.at(-1);
        if (page.length < BATCH || !last) return;
        after = { createdAt: last.createdAt, id: last.id };
      }
    },
  };
}

export type SubscriberAdmin = ReturnType<typeof createSubscriberAdmin>;
