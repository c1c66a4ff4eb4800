import type { Kysely } from "kysely";
import { DomainError } from "#domain/errors.ts";
import { mediaHashesIn } from "#domain/media.ts";
import { isReservedPageSlug, type Page, type PageInput, type PageSummary, reservedSlugMessage } from "#domain/page.ts";
import type { Page as ListPage } from "#domain/pagination.ts";
import type { Database } from "../kernel/db/schema.ts";
import { pictureUploadedImages } from "../kernel/html.ts";
import { describeMedia, mediaRepository as media } from "../media/index.ts";
import * as pages from "./repositories/pages.ts";
import {
  createWritersDesk,
  postRevisionsRepository as revisions,
  previewTokensRepository as previewTokens,
  type Writer,
} from "../posts/index.ts";
import { firstFreeSlug, slugFromTitle, toSlug } from "../kernel/slugs.ts";
import type { AuditLog } from "../accounts/index.ts";
import { type ContentChanges, type ContentTag, pageTag } from "../kernel/content-changes.ts";

export const PAGES_PER_ADMIN_PAGE = 20;
/** The most pages a menu editor offers at once; a site with more links the rest by URL. */
export const PAGE_CHOICES_LIMIT = 500;

export interface PageServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  audit: AuditLog;
  changes: ContentChanges;
}

/** Pages (docs/decisions/0018-pages.md): the only reader and writer of the pages repository. */
export function createPageService({ db, now, audit, changes }: PageServiceDeps) {
  const requirePage = async (id: string): Promise<Page> => {
    const page = await pages.findPageById(db, id);
    if (!page) throw new DomainError("PAGE_NOT_FOUND", "Page not found");
    return page;
  };
  const timestamp = () => now().toISOString();
  const desk = createWritersDesk({
    db,
    now,
    history: revisions.PAGE_REVISIONS,
    previews: previewTokens.PAGE_PREVIEWS,
    requireItem: requirePage,
  });

  /**
   * A page's own address always changes; the menus only when what they show of it did
   * (its address, whether it is public), so most saves keep every other cached page.
   */
  function announce(before: Page | undefined, after: Page | undefined): void {
    const id = (after ?? before)!.id;
    const tags: ContentTag[] = [pageTag(id)];
    if (before?.slug !== after?.slug || before?.published !== after?.published) tags.push("navigation");
    changes.publish(tags, "page");
  }

  /**
   * The slug a save gives the page: the writer's own (folded to a slug) must be free and not
   * the site's; one derived from the title takes the first free `-2`, `-3`… past both.
   */
  async function chooseSlug(input: PageInput, pageId?: string): Promise<string> {
    const isTaken = (slug: string) => pages.isPageSlugTaken(db, slug, pageId);
    const wanted = toSlug(input.slug);
    if (wanted === "") {
      return firstFreeSlug(slugFromTitle(input.title), async (slug) => isReservedPageSlug(slug) || isTaken(slug));
    }
    if (isReservedPageSlug(wanted)) throw new DomainError("PAGE_SLUG_RESERVED", reservedSlugMessage(wanted));
    if (await isTaken(wanted)) throw new DomainError("SLUG_TAKEN", "Another page already uses this slug");
    return wanted;
  }

  return {
    getPageForEditing: requirePage,

    /** The published page at /{slug}; PAGE_NOT_FOUND for anything else, drafts included. */
    async getPublicPage(slug: string): Promise<Page> {
      const page = await pages.findPublicPageBySlug(db, slug);
      if (!page) throw new DomainError("PAGE_NOT_FOUND", "Page not found");
      // Uploaded images become <picture> with their stored sizes, as in a post.
      const images = await media.findMediaByHashes(db, mediaHashesIn(page.content));
      if (images.length === 0) return page;
      const described = new Map(images.map((record) => [record.hash, describeMedia(record)]));
      return { ...page, contentHtml: pictureUploadedImages(page.contentHtml, described) };
    },

    listPages(page = 1, pageSize = PAGES_PER_ADMIN_PAGE): Promise<ListPage<PageSummary>> {
      return pages.listPages(db, { page, pageSize });
    },

    async createPage(input: PageInput, writer: Writer): Promise<Page> {
      const slug = await chooseSlug(input);
      const page = await pages.insertPage(db, { ...input, slug }, timestamp(), { kind: "save", savedBy: writer.email });
      announce(undefined, page);
      if (page.published) await audit.record(writer, "page-published", page.title);
      return page;
    },

    async updatePage(id: string, input: PageInput, writer: Writer): Promise<Page> {
      const before = await requirePage(id);
      const slug = await chooseSlug(input, id);
      const page = await pages.updatePage(db, id, { ...input, slug }, timestamp(), {
        kind: "save",
        savedBy: writer.email,
      });
      if (!page) throw new DomainError("PAGE_NOT_FOUND", "Page not found");
      announce(before, page);
      if (before.published !== page.published) {
        await audit.record(writer, page.published ? "page-published" : "page-unpublished", page.title);
      }
      return page;
    },

    async deletePage(id: string, writer: Writer): Promise<void> {
      const removed = await pages.deletePage(db, id, timestamp());
      if (!removed) throw new DomainError("PAGE_NOT_FOUND", "Page not found");
      announce(removed, undefined);
      await audit.record(writer, "page-deleted", removed.title);
    },

    autosave: desk.autosave,
    findUnsavedDraft: desk.findUnsavedDraft,
    listRevisions: desk.listRevisions,
    getRevision: desk.getRevision,

    /** Puts a revision's title and body back, itself a new revision, so nothing is lost by restoring. */
    async restoreRevision(id: string, revisionId: string, writer: Writer): Promise<Page> {
      const [page, revision] = await Promise.all([requirePage(id), desk.getRevision(id, revisionId)]);
      const draft = { ...page, title: revision.title, content: revision.content, format: revision.format };
      const restored = await pages.updatePage(db, id, draft, timestamp(), { kind: "restore", savedBy: writer.email });
      if (!restored) throw new DomainError("PAGE_NOT_FOUND", "Page not found");
      announce(page, restored);
      return restored;
    },

    createPreviewLink: desk.createPreviewLink,
    revokePreviewLinks: desk.revokePreviewLinks,
    findPreviewLinkCreatedAt: desk.findPreviewLinkCreatedAt,

    /**
     * The page a preview link shows. A revoked or unknown link, or a page published by now
     * (publishing ends previews), is "not found": the link gives nothing away.
     */
    async getPreview(token: string): Promise<Page> {
      const pageId = await desk.findPreviewOwnerId(token);
      const page = pageId ? await pages.findPageById(db, pageId) : undefined;
      if (!page || page.published) throw new DomainError("PREVIEW_NOT_FOUND", "This preview link has ended");
      return page;
    },

    /** Published pages for the sitemap, a batch at a time by slug. */
    listSitemapPages(afterSlug: string, limit: number) {
      return pages.listPublicPageAddresses(db, afterSlug, limit);
    },

    /** What a menu may link to. */
    listPageChoices() {
      return pages.listPageChoices(db, PAGE_CHOICES_LIMIT);
    },

    /** The current slugs of the published pages among `ids`; a draft or deleted page is left out. */
    resolvePublicPageSlugs(ids: readonly string[]) {
      return pages.findPublicPageSlugs(db, ids);
    },

    /** The titles of the pages at these slugs (a page of Analytics' paths, at most). */
    titlesBySlug(slugs: readonly string[]) {
      return pages.findTitlesBySlug(db, slugs);
    },

    /** The current slugs of the published built-in pages, by `builtIn` ("about" → "about"). */
    resolveBuiltInPageSlugs() {
      return pages.findPublicBuiltInPageSlugs(db);
    },
  };
}

export type PageService = ReturnType<typeof createPageService>;
