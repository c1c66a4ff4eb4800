// What every import shares, whatever it reads: its refusals, its report, how a post's body and
// tags are kept, and the cached pages it clears once its transaction is committed.
import type { Kysely, Transaction } from "kysely";
import { DomainError } from "#domain/errors.ts";
import { CATEGORY_LIMITS } from "#domain/categories.ts";
import { mediaHashesIn } from "#domain/media.ts";
import { POST_FORMATS, POST_LIMITS, type PostFormat, uniqueNonEmptyTags } from "#domain/post.ts";
import { IMPORT_TOO_LARGE_MESSAGE, type ImportReport } from "#domain/portability.ts";
import type { Database } from "../kernel/db/schema.ts";
import { findMediaByHashes } from "../media/index.ts";
import { addMissingCategories, describeCategory, findCategoryByName, listCategories } from "../posts/index.ts";
import { type ContentChanges, type ContentTag, postTag } from "../kernel/content-changes.ts";

/** What an import writes with: the database, the clock and the cache it clears. */
export interface ImportDeps {
  db: Kysely<Database>;
  now: () => Date;
  changes: ContentChanges;
}

export type Trx = Transaction<Database>;

export function refuse(message: string): never {
  throw new DomainError("IMPORT_REFUSED", message);
}

export function refuseTooLarge(): never {
  throw new DomainError("IMPORT_TOO_LARGE", IMPORT_TOO_LARGE_MESSAGE);
}

export function emptyReport(format: ImportReport["format"]): ImportReport {
  return { format, created: { posts: 0, comments: 0, pages: 0, settings: 0 }, skipped: [], warnings: [] };
}

/** Cached pages that show what an import created go, as after any other write. */
export function announceImported(changes: ContentChanges, changedPosts: Set<string>): void {
  if (changedPosts.size === 0) return;
  changes.publish(["lists", ...[...changedPosts].map((id): ContentTag => postTag(id))], "post");
}

export function isPostFormat(value: unknown): value is PostFormat {
  return (POST_FORMATS as readonly unknown[]).includes(value);
}

/**
 * A post's tags as the editor would keep them (trimmed, each once whatever its case, at most
 * POST_LIMITS.tags); the report names the post whose tags were cut.
 */
export function keptTags(label: string, tags: string[], report: ImportReport): string[] {
  const unique = uniqueNonEmptyTags(tags);
  if (unique.length > POST_LIMITS.tags) {
    report.warnings.push(
      `${label} had ${unique.length} tags; the first ${POST_LIMITS.tags} are kept, ${unique.length - POST_LIMITS.tags} left out`,
    );
  }
  return unique.slice(0, POST_LIMITS.tags);
}

/** Uploaded images (`/media/{hash}/…`) a text shows that this blog does not have. */
export async function countMissingImages(trx: Trx, text: string): Promise<number> {
  const hashes = mediaHashesIn(text);
  if (hashes.length === 0) return 0;
  return hashes.length - (await findMediaByHashes(trx, hashes)).length;
}

/** What the report says of a post or page of a JSON export that shows images this blog lacks. */
export function missingImagesWarning(label: string, missing: number): string {
  return `${label} shows ${missing} uploaded images this blog does not have (/media/…): import the .zip export, which carries them`;
}

/**
 * Files imported posts under the blog's categories (docs/decisions/0020): a name the blog has (in
 * any case) is that category, any other becomes a new category, named in the report.
 */
export async function categoryFiler(trx: Trx, report: ImportReport) {
  const known = new Map((await listCategories(trx)).map((category) => [category.name.toLowerCase(), category.name]));
  return {
    /** The blog's category of this name, in any case, if it has one. */
    existing(name: string): string | undefined {
      return known.get(name.trim().toLowerCase());
    },
    /** A category of an exported blog: created when this one lacks it, and described where this one's says nothing. */
    async adopt(name: string, description: string): Promise<void> {
      const filed = await this.file(name);
      const wanted = description.trim().slice(0, CATEGORY_LIMITS.description);
      const category = await findCategoryByName(trx, filed);
      if (category && category.description === "" && wanted !== "") {
        await describeCategory(trx, category.id, wanted);
      }
    },
    /** The blog's category of this name, created first when it has none. */
    async file(source: string): Promise<string> {
      const name = source.trim().slice(0, CATEGORY_LIMITS.name).trim();
      const found = known.get(name.toLowerCase());
      if (found !== undefined) return found;
      const [created] = await addMissingCategories(trx, [name]);
      if (created === undefined) return name;
      known.set(created.toLowerCase(), created);
      report.warnings.push(`Created the category ${created}`);
      return created;
    },
  };
}
