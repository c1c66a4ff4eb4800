import type { Logger } from "./logger.ts";

/**
 * A background loop of one app server: the outbox's sender, the fediverse's deliveries and sweep,
 * the analytics writes, housekeeping. `server.ts` starts a list of them at boot and stops the list
 * on SIGTERM, in reverse order; a stop lets the run in flight finish (a batch sent and recorded,
 * views written) and then returns. Every loop's work is also safe to lose to a crash: what it
 * claimed in the database is taken over after its lease, so kill -9 needs nothing from here.
 */
export interface Worker {
  /** Said in the log when it fails to stop in time. */
  readonly name: string;
  start(): Promise<void>;
  /** Lets the run in flight finish and starts no other. */
  stop(): Promise<void>;
  /** Runs soon rather than at the next turn of the timer, as after a write that gave it work. */
  nudge?(): void;
}

/** Hears a failed run; the loop goes on and tries again at its next turn. */
export type WorkerErrorReporter = (error: unknown) => void;

/** A reporter that logs a failed run as `message`, with the error and its stack. */
export function reportTo(logger: Logger, message: string): WorkerErrorReporter {
  return (error) => logger.error({ err: error }, message);
}

export interface PeriodicWorker extends Worker {
  /** Runs at once, or once more as soon as the run in flight ends; settles when that run has. */
  nudge(): Promise<void>;
}

/**
 * A loop that runs `run` every `everyMs`, one run at a time. A run that answers true found more
 * work than it took and is run again at once; a nudge during a run asks for one more after it.
 * Its timer does not keep the process alive. A failed run reaches `onError`.
 */
export function periodicWorker({
  name,
  everyMs,
  run,
  onError,
  runAtStart = false,
}: {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  onError: WorkerErrorReporter;
  /** The first run at start rather than after `everyMs`. */
  runAtStart?: boolean;
}): PeriodicWorker {
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  function schedule(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void runNow(), everyMs);
    timer.unref();
  }

  function runNow(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    clearTimeout(timer);
    running = (async () => {
      let more: unknown;
      do {
        again = false;
        more = await run().catch((error: unknown) => void onError(error));
      } while ((more === true || again) && !stopped);
    })().finally(() => {
      running = undefined;
      if (!stopped) schedule();
    });
    return running;
  }

  return {
    name,
    async start(): Promise<void> {
      if (started) return;
      started = true;
      stopped = false;
      if (runAtStart) void runNow();
      else schedule();
    },
    async stop(): Promise<void> {
      started = false;
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    nudge(): Promise<void> {
      return started && !stopped ? runNow() : Promise.resolve();
    },
  };
}

/** How long a graceful stop waits for all workers together before it gives up on the rest. */
export const WORKERS_STOP_BOUND_MS = 20_000;

/** Starts each worker in turn; a worker that cannot start stops the boot. */
export async function startWorkers(workers: readonly Worker[]): Promise<void> {
  for (const worker of workers) await worker.start();
}

/**
 * Stops the workers in the reverse of their start order, each after the one started after it,
 * all within `boundMs`: a worker still busy then is logged and left, so a stuck SMTP server or
 * inbox cannot hold the process open; its claims are taken over after their lease.
 */
export async function stopWorkers(
  workers: readonly Worker[],
  logger: Logger,
  boundMs: number = WORKERS_STOP_BOUND_MS,
): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (const worker of [...workers].reverse()) {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timed out">((resolve) => {
      timer = setTimeout(() => resolve("timed out"), Math.max(0, deadline - Date.now()));
    });
    const outcome = await Promise.race([
      worker.stop().then(
        () => "stopped" as const,
        (error: unknown) => {
          logger.error({ err: error }, `stopping ${worker.name} failed`);
          return "stopped" as const;
        },
      ),
      timedOut,
    ]);
    clearTimeout(timer);
    if (outcome === "timed out") logger.warn(`${worker.name} still busy after ${boundMs} ms; stopping without it`);
  }
}

/**
 * A nudge handed out before its worker exists (the fediverse's worker is made after the services
 * that nudge it): it reaches the worker once `attach`ed, and does nothing before.
 */
export function createLateNudge(): { nudge: () => void; attach: (worker: Worker) => void } {
  let target: Worker | undefined;
  return {
    nudge: () => target?.nudge?.(),
    attach: (worker) => void (target = worker),
  };
}
