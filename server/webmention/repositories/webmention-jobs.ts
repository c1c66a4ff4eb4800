// The Webmention queue both ways (migration 0029, docs/decisions/0026-webmention.md): one row per
// (direction, source, target), claimed with a lease like the email outbox.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../../kernel/db/connect.ts";
import type { Database, WebmentionDirection } from "../../kernel/db/schema.ts";
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

/** Claims up to `limit` due jobs until `leaseUntil`, in one statement (see claimDeliveries in the outbox). */
export async function claimJobs(
  db: Kysely<Database>,
  dialect: Dialect,
  { at, leaseUntil, limit }: { at: string; leaseUntil: string; limit: number },
): Promise<ClaimedJob[]> {
  const rows = await db
    .with(
      (cte) => cte("due").materialized(),
      (qb) =>
        qb
          .selectFrom("webmention_jobs")
          .select("id")
          .where("state", "=", "queued")
          .where("next_attempt_at", "<=", at)
          .orderBy("next_attempt_at")
          .orderBy("id")
          .limit(limit)
          .$if(dialect === "postgres", (query) => query.forUpdate().skipLocked()),
    )
    .updateTable("webmention_jobs")
    .set((eb) => ({ state: "claimed", claimed_until: leaseUntil, attempts: eb("attempts", "+", 1) }))
    .where("state", "=", "queued")
    .where("id", "in", (eb) => eb.selectFrom("due").select("id"))
    .returning(["id", "direction", "source", "target", "linked", "generation", "attempts"])
    .execute();
  return rows
    .map((row) => ({
      id: Number(row.id),
      direction: row.direction,
      source: row.source,
      target: row.target,
      linked: Number(row.linked) === 1,
      generation: Number(row.generation),
      attempts: Number(row.attempts),
    }))
    .toSorted((a, b) => a.id - b.id);
}

/** Puts back the claims whose lease ran out (their worker died); `at` undefined: every claim (SQLite's one process). */
export async function releaseExpiredClaims(db: Kysely<Database>, at: string | undefined): Promise<number> {
  const released = await db
    .updateTable("webmention_jobs")
    .set({ state: "queued", claimed_until: null })
    .where("state", "=", "claimed")
    .$if(at !== undefined, (query) => query.where("claimed_until", "<=", at!))
    .executeTakeFirst();
  return Number(released.numUpdatedRows);
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

/** A temporary failure: the job waits until `nextAttemptAt`. */
export async function retryJob(db: Kysely<Database>, job: ClaimedJob, nextAttemptAt: string, error: string) {
  await db
    .updateTable("webmention_jobs")
    .set({ state: "queued", claimed_until: null, last_error: error, next_attempt_at: nextAttemptAt })
    .where("id", "=", job.id)
    .where("state", "=", "claimed")
    .execute();
}

/** Moves the lease of jobs still being worked on, so a slow page does not lose them to another worker. */
export async function extendClaims(db: Kysely<Database>, ids: number[], leaseUntil: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("webmention_jobs")
    .set({ claimed_until: leaseUntil })
    .where("id", "in", ids)
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
