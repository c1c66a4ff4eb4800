import pino from "pino";
import { describe, expect, it } from "vitest";
import { periodicWorker, startWorkers, stopWorkers, type Worker } from "./workers.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A run that waits until released, so a test can stop or nudge the worker mid-run. */
function heldRun() {
  let release = () => {};
  const runs: string[] = [];
  return {
    runs,
    release: () => release(),
    run: () => {
      runs.push("started");
      return new Promise<void>((resolve) => {
        release = () => {
          runs.push("finished");
          resolve();
        };
      });
    },
  };
}

function recordingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe("periodicWorker", () => {
  it("lets a stop wait for the run in flight, and runs no other after it", async () => {
    const held = heldRun();
    const worker = periodicWorker({ name: "held", everyMs: 5, run: held.run, onError: () => {}, runAtStart: true });
    await worker.start();
    expect(held.runs).toEqual(["started"]);

    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await sleep(20);
    expect(stopped).toBe(false);
    held.release();
    await stopping;
    expect(held.runs).toEqual(["started", "finished"]);
    await sleep(20);
    expect(held.runs).toEqual(["started", "finished"]);
  });

  it("runs soon when nudged, long before its timer, and once more when nudged during a run", async () => {
    let runs = 0;
    const worker = periodicWorker({ name: "idle", everyMs: 60_000, run: async () => void runs++, onError: () => {} });
    await worker.start();
    expect(runs).toBe(0);
    await worker.nudge();
    expect(runs).toBe(1);

    const held = heldRun();
    const busy = periodicWorker({ name: "busy", everyMs: 60_000, run: held.run, onError: () => {} });
    await busy.start();
    void busy.nudge();
    const afterNudge = busy.nudge();
    held.release();
    await sleep(0);
    held.release();
    await afterNudge;
    expect(held.runs).toEqual(["started", "finished", "started", "finished"]);
    await Promise.all([worker.stop(), busy.stop()]);
  });

  it("reports a failed run and keeps running on its timer", async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const worker = periodicWorker({
      name: "flaky",
      everyMs: 5,
      run: async () => {
        runs += 1;
        if (runs <= 2) throw new Error(`run ${runs} failed`);
      },
      onError: (error) => errors.push(error),
      runAtStart: true,
    });
    await worker.start();
    await expect.poll(() => runs, { timeout: 2_000 }).toBeGreaterThanOrEqual(4);
    await worker.stop();
    expect(errors.map((error) => (error as Error).message)).toEqual(["run 1 failed", "run 2 failed"]);
  });

  it("runs again at once while a run says more work is waiting", async () => {
    let waiting = 3;
    const worker = periodicWorker({
      name: "batches",
      everyMs: 60_000,
      run: async () => {
        waiting -= 1;
        return waiting > 0;
      },
      onError: () => {},
    });
    await worker.start();
    await worker.nudge();
    expect(waiting).toBe(0);
    await worker.stop();
  });
});

describe("stopWorkers", () => {
  it("stops in reverse order of start and gives up on a stuck worker after the bound", async () => {
    const { logger, lines } = recordingLogger();
    const order: string[] = [];
    const worker = (name: string, stop: () => Promise<void>): Worker => ({
      name,
      start: async () => void order.push(`start ${name}`),
      stop: async () => {
        await stop();
        order.push(`stop ${name}`);
      },
    });
    const workers = [
      worker("first", async () => {}),
      worker("stuck", () => new Promise(() => {})),
      worker("last", async () => {}),
    ];
    await startWorkers(workers);
    const began = Date.now();
    await stopWorkers(workers, logger, 100);
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(order).toEqual(["start first", "start stuck", "start last", "stop last", "stop first"]);
    expect(lines.map((line) => line.msg)).toContain("stuck still busy after 100 ms; stopping without it");
  });

  it("logs a worker whose stop fails and stops the others", async () => {
    const { logger, lines } = recordingLogger();
    const stopped: string[] = [];
    await stopWorkers(
      [
        { name: "a", start: async () => {}, stop: async () => void stopped.push("a") },
        {
          name: "b",
          start: async () => {},
          stop: async () => {
            throw new Error("gone");
          },
        },
      ],
      logger,
    );
    expect(stopped).toEqual(["a"]);
    expect(lines.map((line) => line.msg)).toContain("stopping b failed");
  });
});
