// Moving in from Ghost or WordPress: what a post or page read by import-ghost.ts or
// import-wordpress.ts becomes here (category, cover, excerpt, state), in one transaction.
// Importing the same export again adds only what is new: each source post, page and comment
// is recorded once.
import { COMMENT_AUTHOR_MAX, COMMENT_CONTENT_MAX } from "#domain/comment.ts";
import { PAGE_LIMITS } from "#domain/page.ts";
import { POST_LIMITS } from "#domain/post.ts";
import type { ImportOptions, ImportReport } from "#domain/portability.ts";
import { htmlToText, sanitizePostHtml } from "../kernel/html.ts";
import { recordAnnouncedWithoutSending } from "../fediverse/index.ts";
import { findImportTarget, insertImportedComment, recordImportSource } from "./repositories/portability.ts";
import { insertImportedPage } from "./repositories/pages.ts";
import { insertPosts, isSlugTaken } from "../posts/index.ts";
import { newId } from "../kernel/rows.ts";
import { firstFreeSlug, slugFromTitle, toSlug } from "../kernel/slugs.ts";
import { type ForeignExport, type ForeignPage, threadRootKeys } from "./import-formats.ts";
import { announceImportedPages, importedPageSlug } from "./import-pages.ts";
import { announceImported, categoryFiler, emptyReport, type ImportDeps, keptTags, type Trx } from "./import-report.ts";

const EXCERPT_FROM_BODY = 200;
/** How a Ghost export writes its own site's address, for the site it is imported into to fill in. */
const GHOST_SITE_URL = "__GHOST_URL__";

export async function importForeign(
  { db, now, changes }: ImportDeps,
  source: ForeignExport,
  options: ImportOptions,
): Promise<ImportReport> {
  const report: ImportReport = {
    ...emptyReport(source.format),
    skipped: [...source.skipped],
    warnings: [...source.warnings],
  };
  const categoryMap = new Map(
    Object.entries(options.categoryMap).map(([name, category]) => [name.toLowerCase(), category]),
  );
  let externalImages = 0;
  let ghostSiteLinks = 0;
  let ghostSiteLinksInPages = 0;
  const importedAt = now().toISOString();

  const changedPosts = new Set<string>();
  const changedPages = new Set<string>();
  await db.transaction().execute(async (trx: Trx) => {
    const filer = await categoryFiler(trx, report);
    const insertedPosts: string[] = [];
    for (const post of source.posts) {
      let postId = await findImportTarget(trx, post.sourceKey);
      if (postId !== undefined) {
        report.skipped.push({ item: post.label, reason: "imported before" });
      } else {
        postId = newId();
        const chosen =
          chooseCategory(post.terms, categoryMap, filer.existing) ?? post.categories.find((name) => name.trim());
        if (!chosen) {
          report.warnings.push(
            `${post.label} has no mapped category or tag (${post.terms.join(", ") || "none"}); filed under ${options.defaultCategory}`,
          );
        }
        if (!post.title) report.warnings.push(`${post.label} has no title; it is called “Untitled”`);
        if (!post.createdAt) report.warnings.push(`${post.label} has no date; it is dated the day of the import`);
        const content = sanitizePostHtml(post.html);
        ghostSiteLinks += post.html.split(GHOST_SITE_URL).length - 1;
        // The editor accepts only web addresses, and a Ghost site's own files (__GHOST_URL__/content/…)
        // are not on this blog: such a cover is left out, and said so.
        const coverImage = post.coverImage.trim();
        const keepsCover = coverImage.startsWith("http");
        if (coverImage && !keepsCover) {
          report.warnings.push(
            `${post.label} has a cover image this blog cannot show (${coverImage.slice(0, 200)}); it has no cover until you set one in the editor`,
          );
        }
        externalImages += externalImagesIn(content);
        report.warnings.push(...post.notes);
        const createdAt = post.createdAt ?? importedAt;
        await insertPosts(trx, [
          {
            id: postId,
            title: (post.title || "Untitled").slice(0, POST_LIMITS.title),
            slug: await firstFreeSlug(toSlug(post.slug) || slugFromTitle(post.title || "Untitled"), (slug) =>
              isSlugTaken(trx, slug),
            ),
            format: "html",
            content: content.slice(0, POST_LIMITS.content),
            excerpt: (
              post.excerpt || htmlToText(content).replace(/\s+/g, " ").trim().slice(0, EXCERPT_FROM_BODY)
            ).slice(0, POST_LIMITS.excerpt),
            author: (post.author || "Anonymous").slice(0, POST_LIMITS.author),
            coverImage: keepsCover ? coverImage.slice(0, POST_LIMITS.coverImage) : "",
            category: await filer.file(chosen ?? options.defaultCategory),
            tags: keptTags(
              post.label,
              post.tags.map((tag) => tag.slice(0, POST_LIMITS.tag)),
              report,
            ),
            published: post.published,
            publishAt: post.publishAt ?? null,
            commentsClosed: post.commentsClosed,
            createdAt,
            updatedAt: post.updatedAt ?? createdAt,
            ...post.kept,
          },
        ]);
        await recordImportSource(trx, post.sourceKey, postId);
        insertedPosts.push(postId);
        changedPosts.add(postId);
        report.created.posts += 1;
      }
      // Each comment's id here, found (imported before) or new, so a reply can name its thread's first comment.
      const commentIds = new Map<string, string>();
      const newComments: typeof post.comments = [];
      for (const comment of post.comments) {
        const imported = await findImportTarget(trx, comment.sourceKey);
        if (imported !== undefined) {
          commentIds.set(comment.sourceKey, imported);
          report.skipped.push({ item: `comment by ${comment.author} on ${post.label}`, reason: "imported before" });
          continue;
        }
        if (!comment.content) {
          report.skipped.push({ item: `comment by ${comment.author} on ${post.label}`, reason: "it is empty" });
          continue;
        }
        commentIds.set(comment.sourceKey, newId());
        newComments.push(comment);
      }
      const rootKeys = threadRootKeys(post.comments);
      for (const comment of newComments) {
        const commentId = commentIds.get(comment.sourceKey)!;
        const rootKey = rootKeys.get(comment.sourceKey);
        await insertImportedComment(trx, {
          id: commentId,
          post_id: postId,
          author: (comment.author || "Anonymous").slice(0, COMMENT_AUTHOR_MAX),
          content: comment.content.slice(0, COMMENT_CONTENT_MAX),
          created_at: comment.createdAt ?? post.createdAt ?? importedAt,
          status: comment.status,
          held_reason: comment.status === "approved" ? null : `Imported from ${source.format} as ${comment.status}`,
          parent_id: (rootKey && commentIds.get(rootKey)) ?? null,
        });
        await recordImportSource(trx, comment.sourceKey, commentId);
        changedPosts.add(postId);
        report.created.comments += 1;
      }
    }
    // Old posts reach followers only if they are new to them: an imported post is recorded as sent.
    await recordAnnouncedWithoutSending(trx, { postIds: insertedPosts, at: importedAt });
    for (const page of source.pages) {
      const created = await importForeignPage(trx, page, report, importedAt);
      if (!created) continue;
      changedPages.add(created.id);
      ghostSiteLinksInPages += page.html.split(GHOST_SITE_URL).length - 1;
      externalImages += externalImagesIn(created.content);
    }
  });
  announceImported(changes, changedPosts);
  announceImportedPages(changes, changedPages);
  for (const [count, where] of [
    [ghostSiteLinksInPages, "page"],
    [ghostSiteLinks, "post"],
  ] as const) {
    if (count === 0) continue;
    report.warnings.push(
      `${count} images or links in ${where} bodies point at the Ghost site's own files (${GHOST_SITE_URL}/…); they will not work here until those files are copied and the addresses changed`,
    );
  }
  if (externalImages > 0) {
    report.warnings.push(`${externalImages} images are left as links to their original site`);
  }
  return report;
}

/** Images a body shows from another site: they stay links there, and the report counts them. */
function externalImagesIn(html: string): number {
  return [...html.matchAll(/<img\b[^>]*\bsrc="https?:\/\//gi)].length;
}

/**
 * A source page as a page here, in HTML, with its dates (its update is when it was last
 * edited); returns its id and body, or undefined when an earlier import brought it in already.
 * Comments have no place on a page: the report counts them.
 */
async function importForeignPage(
  trx: Trx,
  page: ForeignPage,
  report: ImportReport,
  importedAt: string,
): Promise<{ id: string; content: string } | undefined> {
  if ((await findImportTarget(trx, page.sourceKey)) !== undefined) {
    report.skipped.push({ item: page.label, reason: "imported before" });
    return undefined;
  }
  if (!page.title) report.warnings.push(`${page.label} has no title; it is called “Untitled”`);
  if (!page.createdAt) report.warnings.push(`${page.label} has no date; it is dated the day of the import`);
  report.warnings.push(...page.notes);
  if (page.comments > 0) {
    report.skipped.push({ item: `${page.comments} comments on ${page.label}`, reason: "a page has no comments" });
  }
  const title = (page.title || "Untitled").slice(0, PAGE_LIMITS.title);
  const createdAt = page.createdAt ?? importedAt;
  const updatedAt = page.updatedAt ?? createdAt;
  const id = newId();
  const content = sanitizePostHtml(page.html).slice(0, PAGE_LIMITS.content);
  await insertImportedPage(trx, {
    id,
    slug: await importedPageSlug(trx, { label: page.label, slug: page.slug, title }, report),
    title,
    content,
    format: "html",
    description: page.description.replace(/\s+/g, " ").trim().slice(0, PAGE_LIMITS.description),
    published: page.published ? 1 : 0,
    show_last_updated: 0,
    built_in: null,
    edited_at: updatedAt,
    created_at: createdAt,
    updated_at: updatedAt,
  });
  await recordImportSource(trx, page.sourceKey, id);
  report.created.pages += 1;
  return { id, content };
}

/** The first source term the writer mapped, else the first that is already one of our categories. */
function chooseCategory(
  terms: string[],
  categoryMap: Map<string, string>,
  existing: (name: string) => string | undefined,
): string | undefined {
  for (const term of terms) {
    const mapped = categoryMap.get(term.toLowerCase());
    if (mapped) return mapped;
  }
  for (const term of terms) {
    const found = existing(term);
    if (found) return found;
  }
  return undefined;
}
