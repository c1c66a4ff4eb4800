// Pages moving in (services/import-pages.ts): written as the source had them, dates and all,
// where a writer's save (repositories/pages.ts) dates them now. Their export is the generic
// one of repositories/portability.ts.
import type { Insertable, Transaction } from "kysely";
import { mediaHashesIn } from "#domain/media.ts";
import type { Database, PageRevisionsTable, PagesTable } from "../db/schema.ts";
import { renderPostBody } from "../render/post-body.ts";
import { PAGE_MEDIA_USES, replaceMediaUsesIn } from "./media.ts";
import { type Db, toIsoString } from "./rows.ts";

/** A page as an import writes it: every column but the HTML, which is rendered here as a save does. */
export type ImportedPageRow = Omit<Insertable<PagesTable>, "content_html">;

export async function pageIdExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom("pages").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/** This blog's built-in page of that key (About, Privacy, Terms), if it has not been deleted. */
export async function findBuiltInPage(
  db: Db,
  builtIn: string,
): Promise<{ id: string; title: string; edited: boolean; updatedAt: string } | undefined> {
  const row = await db
    .selectFrom("pages")
    .select(["id", "title", "edited_at", "updated_at"])
    .where("built_in", "=", builtIn)
    .executeTakeFirst();
  return (
    row && { id: row.id, title: row.title, edited: row.edited_at !== null, updatedAt: toIsoString(row.updated_at) }
  );
}

/**
 * Writes an imported page, and the uploaded images it shows as in use (those this blog has),
 * as a writer's save records them: such an image stays out of the prune.
 */
export async function insertImportedPage(trx: Transaction<Database>, row: ImportedPageRow): Promise<void> {
  await trx
    .insertInto("pages")
    .values({ ...row, content_html: renderPostBody(row.format === "html" ? "html" : "markdown", row.content).html })
    .execute();
  const hashes = mediaHashesIn(row.content);
  if (hashes.length > 0) await replaceMediaUsesIn(PAGE_MEDIA_USES, trx, row.id, hashes, toIsoString(row.updated_at));
}

export type PageRevisionRow = Insertable<PageRevisionsTable>;

export async function pageRevisionExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom("page_revisions").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

export async function insertImportedPageRevision(db: Db, row: PageRevisionRow): Promise<void> {
  await db.insertInto("page_revisions").values(row).execute();
}
