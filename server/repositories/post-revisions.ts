import type { Kysely, Selectable, Transaction } from "kysely";
import type { Database, PostRevisionsTable } from "../db/schema.ts";
import type { PostRevision, PostRevisionSummary } from "#domain/revision.ts";
import { newId, toIsoString } from "./rows.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** Revisions kept per post; the oldest go when a new one arrives. */
export const REVISIONS_KEPT = 50;

export interface NewRevision {
  postId: string;
  kind: PostRevision["kind"];
  savedBy: string;
  title: string;
  content: string;
  format: PostRevision["format"];
  createdAt: string;
}

function toSummary(row: Omit<Selectable<PostRevisionsTable>, "content">): PostRevisionSummary {
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
export async function recordRevision(trx: Transaction<Database>, revision: NewRevision): Promise<PostRevisionSummary> {
  const latest = await trx
    .selectFrom("post_revisions")
    .select(["id", "number", "kind", "saved_by"])
    .where("post_id", "=", revision.postId)
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
    await trx.updateTable("post_revisions").set(row).where("id", "=", latest.id).execute();
    return toSummary({ id: latest.id, post_id: revision.postId, number: latest.number, ...row });
  }
  const number = (latest?.number ?? 0) + 1;
  const id = newId();
  await trx
    .insertInto("post_revisions")
    .values({ id, post_id: revision.postId, number, ...row })
    .execute();
  await trx
    .deleteFrom("post_revisions")
    .where("post_id", "=", revision.postId)
    .where("number", "<=", number - REVISIONS_KEPT)
    .execute();
  return toSummary({ id, post_id: revision.postId, number, ...row });
}

/** A post's revisions, newest first (at most 50 exist). */
export async function listRevisions(db: Db, postId: string): Promise<PostRevisionSummary[]> {
  const rows = await db
    .selectFrom("post_revisions")
    .select(["id", "post_id", "number", "kind", "saved_by", "title", "format", "created_at"])
    .where("post_id", "=", postId)
    .orderBy("number", "desc")
    .limit(REVISIONS_KEPT)
    .execute();
  return rows.map(toSummary);
}

export async function findRevision(db: Db, postId: string, id: string): Promise<PostRevision | undefined> {
  const row = await db
    .selectFrom("post_revisions")
    .selectAll()
    .where("post_id", "=", postId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { ...toSummary(row), content: row.content } : undefined;
}

export async function findLatestRevision(db: Db, postId: string): Promise<PostRevision | undefined> {
  const row = await db
    .selectFrom("post_revisions")
    .selectAll()
    .where("post_id", "=", postId)
    .orderBy("number", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { ...toSummary(row), content: row.content } : undefined;
}
