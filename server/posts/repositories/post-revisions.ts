import type { ColumnType, Insertable, Kysely, Selectable, Transaction } from "kysely";
import type { Database, PostRevisionsTable } from "../../kernel/db/schema.ts";
import type { PostRevision, PostRevisionSummary } from "#domain/revision.ts";
import { newId, toIsoString } from "../../kernel/rows.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** Revisions kept per post or page; the oldest go when a new one arrives. */
export const REVISIONS_KEPT = 50;

/**
 * Where a history is kept: posts' and pages' revisions (migration 0020) share every column
 * but the one naming their owner, so one set of statements serves both.
 */
export const POST_REVISIONS = { table: "post_revisions", owner: "post_id" } as const;
export const PAGE_REVISIONS = { table: "page_revisions", owner: "page_id" } as const;
export type RevisionHistory = typeof POST_REVISIONS | typeof PAGE_REVISIONS;

/** An owner column may be left out of an insert: the other one is. */
type RevisionColumns = Omit<PostRevisionsTable, "post_id"> &
  Record<RevisionHistory["owner"], ColumnType<string, string | undefined, string>>;
/** Both tables as one shape, so a statement can name either: only `history.owner` is ever used of the two owners. */
type HistoryDatabase = Record<RevisionHistory["table"], RevisionColumns>;
const historyDb = (db: Db) => db as unknown as Kysely<HistoryDatabase>;

export interface NewRevision {
  /** The post or page. */
  ownerId: string;
  kind: PostRevision["kind"];
  savedBy: string;
  title: string;
  content: string;
  format: PostRevision["format"];
  createdAt: string;
}

const SUMMARY_COLUMNS = ["id", "number", "kind", "saved_by", "title", "format", "created_at"] as const;

function toSummary(row: Pick<Selectable<RevisionColumns>, (typeof SUMMARY_COLUMNS)[number]>): PostRevisionSummary {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    savedBy: row.saved_by,
    title: row.title,
    format: row.format === "markdown" ? "markdown" : "html",
    createdAt: toIsoString(row.created_at),
  };
}

/**
 * Keeps a revision and drops those beyond the newest 50, inside the caller's transaction so a
 * save and its history change together. An autosave replaces the autosave just before it by the
 * same writer, so typing for an hour leaves one autosave rather than pushing real saves out.
 */
export async function recordRevisionIn(
  history: RevisionHistory,
  trx: Transaction<Database>,
  revision: NewRevision,
): Promise<PostRevisionSummary> {
  const db = historyDb(trx);
  const latest = await db
    .selectFrom(history.table)
    .select(["id", "number", "kind", "saved_by"])
    .where(history.owner, "=", revision.ownerId)
    .orderBy("number", "desc")
    .limit(1)
    .executeTakeFirst();
  const row = {
    kind: revision.kind,
    saved_by: revision.savedBy,
    title: revision.title,
    content: revision.content,
    format: revision.format,
    created_at: revision.createdAt,
  };
  if (revision.kind === "autosave" && latest?.kind === "autosave" && latest.saved_by === revision.savedBy) {
    await db.updateTable(history.table).set(row).where("id", "=", latest.id).execute();
    return toSummary({ id: latest.id, number: latest.number, ...row });
  }
  const number = (latest?.number ?? 0) + 1;
  const id = newId();
  await db
    .insertInto(history.table)
    .values({ id, [history.owner]: revision.ownerId, number, ...row } as Insertable<RevisionColumns>)
    .execute();
  await db
    .deleteFrom(history.table)
    .where(history.owner, "=", revision.ownerId)
    .where("number", "<=", number - REVISIONS_KEPT)
    .execute();
  return toSummary({ id, number, ...row });
}

/** A post's or page's revisions, newest first (at most 50 exist). */
export async function listRevisionsIn(
  history: RevisionHistory,
  db: Db,
  ownerId: string,
): Promise<PostRevisionSummary[]> {
  const rows = await historyDb(db)
    .selectFrom(history.table)
    .select(SUMMARY_COLUMNS)
    .where(history.owner, "=", ownerId)
    .orderBy("number", "desc")
    .limit(REVISIONS_KEPT)
    .execute();
  return rows.map(toSummary);
}

export async function findRevisionIn(
  history: RevisionHistory,
  db: Db,
  ownerId: string,
  id: string,
): Promise<PostRevision | undefined> {
  const row = await historyDb(db)
    .selectFrom(history.table)
    .select([...SUMMARY_COLUMNS, "content"])
    .where(history.owner, "=", ownerId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { ...toSummary(row), content: row.content } : undefined;
}

/**
 * An autosave newer than the owner's last save and different from it: what a closed tab or
 * a crash left unsaved.
 */
export async function findUnsavedAutosaveIn(
  history: RevisionHistory,
  db: Db,
  saved: { id: string; title: string; content: string; format: string; updatedAt: string },
): Promise<PostRevision | undefined> {
  const row = await historyDb(db)
    .selectFrom(history.table)
    .select([...SUMMARY_COLUMNS, "content"])
    .where(history.owner, "=", saved.id)
    .orderBy("number", "desc")
    .limit(1)
    .executeTakeFirst();
  const latest = row ? { ...toSummary(row), content: row.content } : undefined;
  if (!latest || latest.kind !== "autosave") return undefined;
  if (Date.parse(latest.createdAt) <= Date.parse(saved.updatedAt)) return undefined;
  const same = latest.title === saved.title && latest.content === saved.content && latest.format === saved.format;
  return same ? undefined : latest;
}

/** The posts' history, as repositories/posts.ts keeps it on every save. */
export function recordRevision(
  trx: Transaction<Database>,
  { postId, ...revision }: Omit<NewRevision, "ownerId"> & { postId: string },
): Promise<PostRevisionSummary> {
  return recordRevisionIn(POST_REVISIONS, trx, { ownerId: postId, ...revision });
}
