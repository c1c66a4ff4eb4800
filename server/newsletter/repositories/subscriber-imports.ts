// The record of the latest subscriber CSV import (migration 0024): one row each import takes
// over when none is running, moved on batch by batch, read by every app server's Subscribers screen.
import type { Selectable } from "kysely";
import type { SubscriberImportsTable } from "../../kernel/db/schema.ts";
import type { Db } from "../../kernel/rows.ts";

/** The one row's key: the table holds the latest import only. */
const LATEST = "latest";

/** The report's counts so far. */
export interface SubscriberImportProgress {
  rowsRead: number;
  added: number;
  alreadyListed: number;
  notSubscribed: number;
  invalid: number;
}

export interface SubscriberImportRecord {
  runId: string;
  state: SubscriberImportsTable["state"];
  newState: SubscriberImportsTable["new_state"];
  startedBy: string;
  startedAt: string;
  heartbeatAt: string;
  finishedAt: string | undefined;
  progress: SubscriberImportProgress;
  invalidLines: { line: number; value: string }[];
  failure: string | undefined;
}

const progressColumns = (progress: SubscriberImportProgress) => ({
  rows_read: progress.rowsRead,
  added: progress.added,
  already_listed: progress.alreadyListed,
  not_subscribed: progress.notSubscribed,
  invalid: progress.invalid,
});

function toRecord(row: Selectable<SubscriberImportsTable>): SubscriberImportRecord {
  return {
    runId: row.run_id,
    state: row.state,
    newState: row.new_state,
    startedBy: row.started_by,
    startedAt: row.started_at,
    heartbeatAt: row.heartbeat_at,
    finishedAt: row.finished_at ?? undefined,
    progress: {
      rowsRead: Number(row.rows_read),
      added: Number(row.added),
      alreadyListed: Number(row.already_listed),
      notSubscribed: Number(row.not_subscribed),
      invalid: Number(row.invalid),
    },
    invalidLines: JSON.parse(row.invalid_lines) as { line: number; value: string }[],
    failure: row.failure ?? undefined,
  };
}

/**
 * Makes `runId` the latest import, in one statement, unless another is running with a heartbeat
 * at or after `staleBefore`; true when it did. Two servers claiming at once: one wins.
 */
export async function claimSubscriberImport(
  db: Db,
  {
    runId,
    newState,
    startedBy,
    now,
    staleBefore,
  }: { runId: string; newState: "active" | "pending"; startedBy: string; now: string; staleBefore: string },
): Promise<boolean> {
  const row = {
    run_id: runId,
    state: "running" as const,
    new_state: newState,
    started_by: startedBy,
    started_at: now,
    heartbeat_at: now,
    finished_at: null,
    ...progressColumns({ rowsRead: 0, added: 0, alreadyListed: 0, notSubscribed: 0, invalid: 0 }),
    invalid_lines: "[]",
    failure: null,
  };
  const result = await db
    .insertInto("subscriber_imports")
    .values({ id: LATEST, ...row })
    .onConflict((oc) =>
      oc
        .column("id")
        .doUpdateSet(row)
        .where((eb) =>
          eb.or([
            eb("subscriber_imports.state", "!=", "running"),
            eb("subscriber_imports.heartbeat_at", "<", staleBefore),
          ]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The counts after a batch, and the heartbeat; false when `runId` is no longer the running import. */
export async function recordSubscriberImportProgress(
  db: Db,
  runId: string,
  progress: SubscriberImportProgress,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable("subscriber_imports")
    .set({ ...progressColumns(progress), heartbeat_at: now })
    .where("id", "=", LATEST)
    .where("run_id", "=", runId)
    .where("state", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** How the import ended (`record.state` and its counts); nothing when a newer one has taken the row. */
export async function endSubscriberImport(db: Db, record: SubscriberImportRecord): Promise<void> {
  await db
    .updateTable("subscriber_imports")
    .set({
      ...progressColumns(record.progress),
      state: record.state,
      heartbeat_at: record.heartbeatAt,
      finished_at: record.finishedAt ?? record.heartbeatAt,
      invalid_lines: JSON.stringify(record.invalidLines),
      failure: record.failure ?? null,
    })
    .where("id", "=", LATEST)
    .where("run_id", "=", record.runId)
    .where("state", "=", "running")
    .execute();
}

export async function findSubscriberImport(db: Db): Promise<SubscriberImportRecord | undefined> {
  const row = await db.selectFrom("subscriber_imports").selectAll().where("id", "=", LATEST).executeTakeFirst();
  return row && toRecord(row);
}
