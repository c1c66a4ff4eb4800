// The Webmention queue both ways (migration 0029, docs/decisions/0026-webmention.md): one row per
// (direction, source, target), claimed with a lease through the kernel's durable queue
// (server/kernel/durable-queue.ts), as the email outbox's deliveries are.
import { type Kysely, type Selectable, sql } from "kysely";
import type { Database, WebmentionDirection, WebmentionJobsTable } from "../../kernel/db/schema.ts";
import type { Db } from "../../kernel/rows.ts";

export interface WebmentionJob {
  direction: WebmentionDirection;
  source: string;
  target: string;
  /** For a send: the post still links the target (else it is told once, then forgotten). */
  linked: boolean;
}

export interface ClaimedJob extends WebmentionJob {
  id: number;
  /** Which request this claim answers: a newer one meanwhile leaves the row queued when it is done. */
  generation: number;
  /** Claims so far, this one included. */
  attempts: number;
}

/**
 * Queues each job, or asks again for one already known: a row waiting or done becomes due now;
 * a row being worked on keeps its claim and, with its generation moved, is queued again when
 * that work ends. One statement per job, in the caller's transaction when there is one.
 */
export async function requestJobs(db: Db, jobs: readonly WebmentionJob[], at: string): Promise<void> {
  for (const job of jobs) {
    await db
      .insertInto("webmention_jobs")
      .values({
        direction: job.direction,
        source: job.source,
        target: job.target,
        state: "queued",
        linked: job.linked ? 1 : 0,
        next_attempt_at: at,
        created_at: at,
      })
      .onConflict((conflict) =>
        conflict.columns(["direction", "source", "target"]).doUpdateSet({
          generation: sql`webmention_jobs.generation + 1`,
          linked: job.linked ? 1 : 0,
          attempts: 0,
          next_attempt_at: at,
          last_error: null,
          state: sql`case when webmention_jobs.state = 'claimed' then 'claimed' else 'queued' end`,
        }),
      )
      .execute();
  }
}

/** Every target a post's page was announced to and still links: what an edit compares its links with. */
export async function listSentTargets(db: Db, source: string): Promise<string[]> {
  const rows = await db
    .selectFrom("webmention_jobs")
    .select("target")
    .where("direction", "=", "send")
    .where("source", "=", source)
    .where("linked", "=", 1)
    .execute();
  return rows.map((row) => row.target);
}

/** A claimed row of `webmention_jobs` (server/kernel/durable-queue.ts `claim`) as the worker reads it. */
export function toClaimedJob(row: Selectable<WebmentionJobsTable>): ClaimedJob {
  return {
    id: Number(row.id),
    direction: row.direction,
    source: row.source,
    target: row.target,
    linked: Number(row.linked) === 1,
    generation: Number(row.generation),
    attempts: Number(row.attempts),
  };
}

/**
 * Records a claimed job's end: done (or failed for good), unless it was asked for again while it
 * ran, when it is queued at once. A send whose post no longer links the target was its last word: gone.
 */
export async function finishJob(
  db: Kysely<Database>,
  job: ClaimedJob,
  outcome: { state: "done" | "failed"; at: string; error?: string },
): Promise<void> {
  if (job.direction === "send" && !job.linked && outcome.state === "done") {
    await db
      .deleteFrom("webmention_jobs")
      .where("id", "=", job.id)
      .where("generation", "=", job.generation)
      .where("linked", "=", 0)
      .execute();
  }
  await db
    .updateTable("webmention_jobs")
    .set({
      state: sql`case when generation = ${job.generation} then ${outcome.state} else 'queued' end`,
      claimed_until: null,
      last_error: outcome.error ?? null,
      finished_at: outcome.at,
    })
    .where("id", "=", job.id)
    .where("state", "=", "claimed")
    .execute();
}

/** The state of every job of one direction from `source` (tests, and the editor's word on what was sent). */
export async function listJobsFrom(db: Kysely<Database>, direction: WebmentionDirection, source: string) {
  return db
    .selectFrom("webmention_jobs")
    .select(["target", "state", "attempts", "last_error", "linked"])
    .where("direction", "=", direction)
    .where("source", "=", source)
    .orderBy("id")
    .execute();
}
