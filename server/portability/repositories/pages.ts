// Pages moving in (server/portability/import-pages.ts): written as the source had them, dates and all,
// where a writer's save (server/pages/repositories/pages.ts) dates them now. Their export is the generic
// one of repositories/portability.ts.
import type { Insertable, Transaction } from "kysely";
import type { Database, PageRevisionsTable, PagesTable } from "../../kernel/db/schema.ts";
import { insertPage } from "../../pages/index.ts";
import { type Db, toIsoString } from "../../kernel/rows.ts";

/** A page as an import writes it: every column but the HTML, which the save renders. */
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

/** Writes an imported page through the one page write (server/pages/repositories/pages.ts), dated as its source had it. */
export async function insertImportedPage(trx: Transaction<Database>, row: ImportedPageRow): Promise<void> {
  const updatedAt = toIsoString(row.updated_at);
  await insertPage(
    trx,
    {
      slug: row.slug,
      title: row.title,
      content: row.content,
      format: row.format === "html" ? "html" : "markdown",
      description: row.description ?? "",
      published: row.published === 1,
      showLastUpdated: row.show_last_updated === 1,
    },
    updatedAt,
    undefined,
    {
      id: row.id,
      builtIn: row.built_in ?? null,
      editedAt: row.edited_at == null ? null : toIsoString(row.edited_at),
      createdAt: toIsoString(row.created_at),
      updatedAt,
    },
  );
}

export type PageRevisionRow = Insertable<PageRevisionsTable>;

export async function pageRevisionExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom("page_revisions").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

export async function insertImportedPageRevision(db: Db, row: PageRevisionRow): Promise<void> {
  await db.insertInto("page_revisions").values(row).execute();
}
