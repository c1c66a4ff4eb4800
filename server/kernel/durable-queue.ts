import type { Kysely, Selectable } from "kysely";
import type { Dialect } from "./db/connect.ts";
import type { Database } from "./db/schema.ts";
import * as queueRows from "./repositories/durable-queue.ts";
import type { QueueTable } from "./repositories/durable-queue.ts";
import { type PeriodicWorker, periodicWorker, type Worker, type WorkerErrorReporter } from "./workers.ts";

export type { QueueTable } from "./repositories/durable-queue.ts";

/** The wait before the next try after `attempts` tries: `baseMs`, doubling each time, at most `maxMs`. */
export function retryWait(attempts: number, baseMs: number, maxMs = Number.POSITIVE_INFINITY): number {
  return Math.min(baseMs * 2 ** (attempts - 1), maxMs);
}

/**
 * Work that leaves the process, kept in a table until it is done (docs/decisions/0014 and 0035):
 * enqueueing only writes rows, in the caller's transaction when it has one; a worker in each app
 * server claims due rows with a lease, renews the lease while it works, and records each row's
 * end. A worker killed with -9 loses nothing: its claims are released when their lease runs out
 * and another worker (or this one, restarted) takes them. Servers sharing a PostgreSQL database
 * never claim the same row; one process serves a SQLite file, so at its start every claim left
 * there is a crashed run's. The table's own rows and what working one means stay with its
 * capability (the email outbox, Webmention, webhooks).
 */
export function createDurableQueue<T extends QueueTable>({
  db,
  dialect,
  now,
  table,
  name,
  leaseMs,
  pollMs,
}: {
  db: Kysely<Database>;
  dialect: Dialect;
  now: () => Date;
  table: T;
  /** The worker's name in the log. */
  name: string;
  /** How long a claim holds before another worker may take the row over. */
  leaseMs: number;
  /** How often an idle worker looks for work queued by another server or come due. */
  pollMs: number;
}) {
  let running: PeriodicWorker | undefined;
  const wake = () => void running?.nudge();

  return {
    /** Works what a committed transaction queued now, rather than at the worker's next look. */
    wake,

    /** Claims up to `limit` due rows until a lease from now; each row's `attempts` counts this claim. */
    claim(limit: number): Promise<Selectable<Database[T]>[]> {
      const at = now();
      return queueRows.claimDue(db, dialect, table, {
        at: at.toISOString(),
        leaseUntil: new Date(at.getTime() + leaseMs).toISOString(),
        limit,
      });
    },

    /**
     * Runs `work` on claimed rows while renewing the lease of those it has not `settle`d yet, so
     * a slow peer does not lose them to another worker. A renewal that fails leaves the lease as
     * it was; at worst another worker works a row twice.
     */
    async holding<R>(ids: readonly number[], work: (settle: (id: number) => void) => Promise<R>): Promise<R> {
      const pending = new Set(ids);
      const renewLease = setInterval(() => {
        const leaseUntil = new Date(now().getTime() + leaseMs).toISOString();
        void queueRows.extendClaims(db, table, [...pending], leaseUntil).catch(() => {});
      }, leaseMs / 3);
      try {
        return await work((id) => pending.delete(id));
      } finally {
        clearInterval(renewLease);
      }
    },

    /** A temporary failure of a claimed row: it is tried again at `nextAttemptAt`. */
    retryLater(
      id: number,
      retry: { nextAttemptAt: string; error: string; alsoQueued?: boolean },
      trx: Parameters<typeof queueRows.retryLater>[0] = db,
    ): Promise<void> {
      return queueRows.retryLater(trx, table, id, retry);
    },

    /**
     * This server's worker (server/kernel/workers.ts), the one loop that works this queue: each
     * turn releases the claims whose lease ran out, then runs `turn`, which claims and works a
     * batch and answers true when it had one (the next may be waiting already). Its stop lets
     * the batch in flight finish and record its results.
     */
    worker(turn: () => Promise<boolean>, onError: WorkerErrorReporter): Worker {
      let releasedAt = 0;
      const loop = periodicWorker({
        name,
        everyMs: pollMs,
        run: async () => {
          if (releasedAt === 0 && dialect === "sqlite") await queueRows.releaseExpiredClaims(db, table, undefined);
          if (Date.now() - releasedAt >= leaseMs / 2) {
            await queueRows.releaseExpiredClaims(db, table, now().toISOString());
            releasedAt = Date.now();
          }
          return turn();
        },
        onError,
        runAtStart: true,
      });
      return {
        name: loop.name,
        async start() {
          if (running) return;
          running = loop;
          await loop.start();
        },
        async stop() {
          if (running !== loop) return;
          running = undefined;
          await loop.stop();
        },
        nudge: wake,
      };
    },

    /** Lets the batch in flight finish and record its results, then returns. */
    async stop(): Promise<void> {
      const loop = running;
      running = undefined;
      await loop?.stop();
    },
  };
}

export type DurableQueue<T extends QueueTable> = ReturnType<typeof createDurableQueue<T>>;
