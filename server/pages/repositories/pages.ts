// Pages (docs/decisions/0018-pages.md): the writer's own pages at /{slug}. All their SQL is here;
// `selectPublicPages` is their publishing rule, as `selectPublicPosts` is the posts'.
import type { Selectable, Transaction } from "kysely";
import { mediaHashesIn } from "#domain/media.ts";
import type { Page, PageDraft, PageSummary } from "#domain/page.ts";
import { type Page as ListPage, pageWindow } from "#domain/pagination.ts";
import type { Database, PagesTable } from "../../kernel/db/schema.ts";
import { renderPostBody } from "../../render/index.ts";
import { PAGE_MEDIA_USES, replaceMediaUsesIn } from "../../media/index.ts";
import { deletePreviewTokens, PAGE_PREVIEWS, PAGE_REVISIONS, recordRevisionIn } from "../../posts/index.ts";
import { type Db, inTransaction, newId, toIsoString } from "../../kernel/rows.ts";

/** What the public may see of pages: published ones. Every public read of a page starts here. */
export function selectPublicPages(db: Db) {
  return db.selectFrom("pages").where("pages.published", "=", 1);
}

const SUMMARY_COLUMNS = [
  "id",
  "slug",
  "title",
  "format",
  "description",
  "published",
  "show_last_updated",
  "built_in",
  "edited_at",
  "created_at",
  "updated_at",
] as const;

type SummaryRow = Pick<Selectable<PagesTable>, (typeof SUMMARY_COLUMNS)[number]>;

function toSummary(row: SummaryRow): PageSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    format: row.format === "html" ? "html" : "markdown",
    description: row.description,
    published: row.published === 1,
    showLastUpdated: row.show_last_updated === 1,
    builtIn: row.built_in === "about" || row.built_in === "privacy" || row.built_in === "terms" ? row.built_in : null,
    editedAt: row.edited_at === null ? null : toIsoString(row.edited_at),
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

function toPage(row: Selectable<PagesTable>): Page {
  return { ...toSummary(row), content: row.content, contentHtml: row.content_html };
}

/** The columns a save writes: the draft, with its body rendered and sanitised here, once. */
function draftColumns(draft: PageDraft) {
  return {
    slug: draft.slug,
    title: draft.title,
    content: draft.content,
    format: draft.format,
    content_html: renderPostBody(draft.format, draft.content).html,
    description: draft.description,
    published: draft.published ? 1 : 0,
    show_last_updated: draft.showLastUpdated ? 1 : 0,
  };
}

export async function findPageById(db: Db, id: string): Promise<Page | undefined> {
  const row = await db.selectFrom("pages").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toPage(row) : undefined;
}

/** The published page at /{slug}, or nothing. */
export async function findPublicPageBySlug(db: Db, slug: string): Promise<Page | undefined> {
  const row = await selectPublicPages(db).selectAll().where("pages.slug", "=", slug).executeTakeFirst();
  return row ? toPage(row) : undefined;
}

/** Whether a page other than `exceptPageId` has this slug. */
export async function isPageSlugTaken(db: Db, slug: string, exceptPageId?: string): Promise<boolean> {
  let query = db.selectFrom("pages").select("id").where("slug", "=", slug);
  if (exceptPageId !== undefined) query = query.where("id", "!=", exceptPageId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Who saved, and how, for the revision a writer's save keeps (an import keeps none). */
export interface PageRevisionAuthor {
  kind: "save" | "restore";
  savedBy: string;
}

/**
 * What every save does beside the row, in its transaction: the images the body shows are
 * in use (so the library will not delete them), the history gains the text as saved, and
 * publishing ends the private previews, as a post's does.
 */
async function afterSave(
  trx: Transaction<Database>,
  id: string,
  draft: PageDraft,
  now: string,
  revision: PageRevisionAuthor | undefined,
): Promise<void> {
  await replaceMediaUsesIn(PAGE_MEDIA_USES, trx, id, mediaHashesIn(draft.content), now);
  if (revision) {
    await recordRevisionIn(PAGE_REVISIONS, trx, {
      ownerId: id,
      ...revision,
      title: draft.title,
      content: draft.content,
      format: draft.format,
      createdAt: now,
    });
  }
  if (draft.published) await deletePreviewTokens(PAGE_PREVIEWS, trx, id);
}

/** What an import keeps of a page as its source had it; a writer's new page has none of it. */
export interface StoredPageFields {
  id: string;
  builtIn: string | null;
  editedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Writes a new page: a writer's, saved now (so `edited` now), or an imported one as its source
 * had it (`stored`), its images' uses dated by its last update.
 */
export async function insertPage(
  db: Db,
  draft: PageDraft,
  now: string,
  revision?: PageRevisionAuthor,
  stored?: StoredPageFields,
): Promise<Page> {
  const id = stored?.id ?? newId();
  const dates = stored
    ? {
        built_in: stored.builtIn,
        edited_at: stored.editedAt,
        created_at: stored.createdAt,
        updated_at: stored.updatedAt,
      }
    : { edited_at: now, created_at: now, updated_at: now };
  return inTransaction(db, async (trx) => {
    await trx
      .insertInto("pages")
      .values({ id, ...draftColumns(draft), ...dates })
      .execute();
    await afterSave(trx, id, draft, stored?.updatedAt ?? now, revision);
    return (await findPageById(trx, id))!;
  });
}

/** Saves a page over what it was; undefined when there is no such page. */
export async function updatePage(
  db: Db,
  id: string,
  draft: PageDraft,
  now: string,
  revision?: PageRevisionAuthor,
): Promise<Page | undefined> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("pages")
      .set({ ...draftColumns(draft), edited_at: now, updated_at: now })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    await afterSave(trx, id, draft, now, revision);
    return findPageById(trx, id);
  });
}

/** Deletes the page with its revisions and preview links; the images it showed may become unused from `now`. */
export async function deletePage(db: Db, id: string, now: string): Promise<Page | undefined> {
  return inTransaction(db, async (trx) => {
    const page = await findPageById(trx, id);
    if (!page) return undefined;
    await replaceMediaUsesIn(PAGE_MEDIA_USES, trx, id, [], now);
    await trx.deleteFrom("page_revisions").where("page_id", "=", id).execute();
    await trx.deleteFrom("page_preview_tokens").where("page_id", "=", id).execute();
    await trx.deleteFrom("pages").where("id", "=", id).execute();
    return page;
  });
}

/** A page of the writer's list, every page, by title. */
export async function listPages(db: Db, request: { page: number; pageSize: number }): Promise<ListPage<PageSummary>> {
  const { limit, offset } = pageWindow(request.page, request.pageSize);
  const [rows, count] = await Promise.all([
    db.selectFrom("pages").select(SUMMARY_COLUMNS).orderBy("title").orderBy("id").limit(limit).offset(offset).execute(),
    db
      .selectFrom("pages")
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toSummary), total: Number(count.total), page: request.page, pageSize: request.pageSize };
}

/** Published pages a batch at a time, by slug after `afterSlug`: the sitemap's (no body read). */
export async function listPublicPageAddresses(
  db: Db,
  afterSlug: string,
  limit: number,
): Promise<{ slug: string; updatedAt: string }[]> {
  const rows = await selectPublicPages(db)
    .select(["pages.slug", "pages.updated_at"])
    .where("pages.slug", ">", afterSlug)
    .orderBy("pages.slug")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ slug: row.slug, updatedAt: toIsoString(row.updated_at) }));
}

/** Pages a menu may link to (navigation's choices), published or not, by title; at most `limit`. */
export async function listPageChoices(
  db: Db,
  limit: number,
): Promise<Pick<PageSummary, "id" | "slug" | "title" | "published">[]> {
  const rows = await db
    .selectFrom("pages")
    .select(["id", "slug", "title", "published"])
    .orderBy("title")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, slug: row.slug, title: row.title, published: row.published === 1 }));
}

/** The published pages with these ids, for links that name pages by id (navigation). */
export async function findPublicPageSlugs(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await selectPublicPages(db).select(["pages.id", "pages.slug"]).where("pages.id", "in", ids).execute();
  return new Map(rows.map((row) => [row.id, row.slug]));
}

/** The titles of the pages at these slugs, drafts too (Analytics names a page it counted). */
export async function findTitlesBySlug(db: Db, slugs: readonly string[]): Promise<Map<string, string>> {
  if (slugs.length === 0) return new Map();
  const rows = await db.selectFrom("pages").select(["slug", "title"]).where("slug", "in", slugs).execute();
  return new Map(rows.map((row) => [row.slug, row.title]));
}

/** The current slugs of the published built-in pages (the default menus link to them). */
export async function findPublicBuiltInPageSlugs(db: Db): Promise<Map<string, string>> {
  const rows = await selectPublicPages(db)
    .select(["pages.built_in", "pages.slug"])
    .where("pages.built_in", "is not", null)
    .execute();
  return new Map(rows.map((row) => [row.built_in!, row.slug]));
}
