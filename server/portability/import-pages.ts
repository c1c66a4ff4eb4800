// Pages moving in, from Ghost and WordPress (import-foreign.ts) or our own export
// (import-own.ts): the address a page gets here, and the cached pages an import changes.
import { BUILT_IN_PAGES, isReservedPageSlug } from "#domain/page.ts";
import type { ImportReport } from "#domain/portability.ts";
import {
  findBuiltInPage,
  insertImportedPage,
  insertImportedPageRevision,
  pageIdExists,
  type PageRevisionRow,
  pageRevisionExists,
} from "./repositories/pages.ts";
import { deletePage, isPageSlugTaken } from "../pages/index.ts";
import { firstFreeSlug, slugFromTitle, toSlug } from "../kernel/slugs.ts";
import { type ContentChanges, type ContentTag, pageTag } from "../kernel/content-changes.ts";
import { countMissingImages, isPostFormat, missingImagesWarning, refuse, type Trx } from "./import-report.ts";

/**
 * A page keeps the address it had there when it is free here and not one of the site's own
 * (/blog, /admin…); otherwise it takes the first free `-2`, `-3`…, as a new page's derived slug
 * does, and the report says where it went.
 */
export async function importedPageSlug(
  trx: Trx,
  page: { label: string; slug: string; title: string },
  report: ImportReport,
): Promise<string> {
  const named = toSlug(page.slug);
  const wanted = named || slugFromTitle(page.title || "Untitled");
  const slug = await firstFreeSlug(
    wanted,
    async (candidate) => isReservedPageSlug(candidate) || isPageSlugTaken(trx, candidate),
  );
  if (slug !== wanted) {
    const why = isReservedPageSlug(wanted) ? "belongs to this site" : "is taken here";
    report.warnings.push(
      named
        ? `${page.label} was at /${wanted} there; that address ${why}, so it is at /${slug}`
        : `${page.label} is at /${slug}: /${wanted} ${why}`,
    );
  }
  return slug;
}

/**
 * An imported or replaced page's own cached address goes, and every cached page whose menus
 * may link to it ("navigation"), as after a writer's save that changes its address.
 */
export function announceImportedPages(changes: ContentChanges, changedPages: Set<string>): void {
  if (changedPages.size === 0) return;
  changes.publish(["navigation", ...[...changedPages].map((id): ContentTag => pageTag(id))], "page");
}

/**
 * The pages of our own export (import-own.ts has read their rows). A page keeps its id, so menus
 * that name it still do; one whose id this blog has already is left as it is here, as a post
 * is. A built-in page takes the place of this blog's of the same key, id included (one About,
 * not two), unless the export's was never saved or is this very page unchanged. Returns the
 * pages whose cached addresses change.
 */
export async function importOwnPages(
  trx: Trx,
  rows: Record<string, unknown>[],
  revisions: Record<string, unknown>[],
  report: ImportReport,
  now: string,
): Promise<Set<string>> {
  const changed = new Set<string>();
  const imported = new Set<string>();
  // Built-in pages first: taking their place frees the addresses this blog's own had.
  const ordered = [...rows.filter((row) => row.built_in != null), ...rows.filter((row) => row.built_in == null)];
  for (const row of ordered) {
    const id = String(row.id);
    const title = String(row.title);
    const label = `page “${title}”`;
    if (!isPostFormat(row.format)) refuse(`Page ${id} has an unknown format.`);
    const builtIn = row.built_in == null ? null : String(row.built_in);
    if (builtIn !== null && !(BUILT_IN_PAGES as readonly string[]).includes(builtIn)) {
      refuse(`Page ${id} is an unknown built-in page (${builtIn}).`);
    }
    const own = builtIn === null ? undefined : await findBuiltInPage(trx, builtIn);
    // A built-in page never saved holds nothing of the writer's (any save, even unpublishing,
    // dates it), and this very page unchanged is here already: neither is worth a line.
    if (own && (row.edited_at == null || (own.id === id && own.updatedAt === row.updated_at))) continue;
    if (own?.id !== id && (await pageIdExists(trx, id))) {
      report.skipped.push({ item: label, reason: "a page with its id already exists" });
      continue;
    }
    if (own) {
      if (own.edited) report.warnings.push(`${label} takes the place of this blog's edited “${own.title}”`);
      await deletePage(trx, own.id, now);
      changed.add(own.id);
    }
    const content = String(row.content);
    const missingImages = await countMissingImages(trx, content);
    if (missingImages > 0) report.warnings.push(missingImagesWarning(label, missingImages));
    await insertImportedPage(trx, {
      id,
      slug: await importedPageSlug(trx, { label, slug: String(row.slug ?? ""), title }, report),
      title,
      content,
      format: row.format,
      description: String(row.description ?? ""),
      published: row.published ? 1 : 0,
      show_last_updated: row.show_last_updated ? 1 : 0,
      built_in: builtIn,
      edited_at: (row.edited_at as string | null | undefined) ?? null,
      created_at: String(row.created_at),
      updated_at: String(row.updated_at),
    });
    imported.add(id);
    changed.add(id);
    report.created.pages += 1;
  }
  for (const row of revisions) {
    const id = String(row.id);
    // A revision belongs to the page it came with; one whose page was skipped stays behind with it.
    if (!imported.has(String(row.page_id)) || (await pageRevisionExists(trx, id))) continue;
    if (!["save", "autosave", "restore"].includes(String(row.kind)) || !isPostFormat(row.format)) {
      refuse(`Page revision ${id} has an unknown kind or format.`);
    }
    await insertImportedPageRevision(trx, row as PageRevisionRow);
  }
  return changed;
}
