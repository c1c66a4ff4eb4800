// Moving out (a streamed JSON export) and moving in (our export, Ghost, WordPress) in one transaction.
// The format is docs/export-format.schema.json; why it is built this way: docs/decisions/0009.
import { Readable } from "node:stream";
import type { Kysely, Transaction } from "kysely";
import { ZipFile } from "yazl";
import { CATEGORIES, type Category } from "#domain/categories.ts";
import { COMMENT_AUTHOR_MAX, COMMENT_CONTENT_MAX, COMMENT_STATUSES, type CommentStatus } from "#domain/comment.ts";
import { DomainError } from "#domain/errors.ts";
import { POST_LIMITS, uniqueNonEmptyTags } from "#domain/post.ts";
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  IMPORT_MAX_BYTES,
  IMPORT_TOO_LARGE_MESSAGE,
  type ImportOptions,
  type ImportReport,
} from "#domain/portability.ts";
import { type ImageFormat, mediaHashesIn } from "#domain/media.ts";
import { siteSettingsSchema } from "#domain/site-settings.ts";
import type { Database } from "../db/schema.ts";
import { renderPostBody } from "../render/post-body.ts";
import { isSlugTaken } from "../repositories/posts.ts";
import { firstFreeSlug, slugFromTitle, toSlug } from "../slugs.ts";
import { POST_FORMATS, type PostFormat } from "#domain/post.ts";
import { htmlToText, sanitizePostHtml } from "../html.ts";
import { newId, toIsoString } from "../repositories/posts.ts";
import {
  EXPORTED_SECTIONS,
  type CommentRow,
  type ExportRow,
  type ExportSection,
  findImportTarget,
  insertImportedComment,
  insertImportedRevision,
  insertImportedPost,
  insertSetting,
  type PostRow,
  type RevisionRow,
  readAllSettings,
  readExportPage,
  readMediaExportPage,
  readMediaFileKeys,
  readTagsOfPosts,
  recordImportSource,
  rowExists,
  settingExists,
} from "../repositories/portability.ts";
import { findSiteSettings, findSiteSettingsVersion, saveSiteSettings } from "../repositories/site-settings.ts";
import { loadSharp } from "../media/sharp.ts";
import type { MediaStore } from "../media/store.ts";
import { findMedia, findMediaByHashes, insertMedia } from "../repositories/media.ts";
import { type ContentChanges, type ContentTag, postTag } from "./content-changes.ts";
import { ARCHIVE_EXPORT_NAME, ARCHIVE_MEDIA_NAME, type ArchivedMedia, openArchive } from "./import-archive.ts";
import { type ForeignExport, parseExportJson, readGhostExport, readWordPressExport } from "./import-formats.ts";

/** Rows read per query while exporting: memory stays flat however large the blog. */
const EXPORT_PAGE_SIZE = 500;
/** Images listed per query while building an archive (their files are read one at a time). */
const MEDIA_PAGE_SIZE = 100;

const EXCERPT_FROM_BODY = 200;
/** How a Ghost export writes its own site's address, for the site it is imported into to fill in. */
const GHOST_SITE_URL = "__GHOST_URL__";

function camelCase(column: string): string {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function toJsonRow(row: ExportRow): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      camelCase(column),
      value instanceof Date ? toIsoString(value) : value,
    ]),
  );
}

function refuse(message: string): never {
  throw new DomainError("IMPORT_REFUSED", message);
}

type Trx = Transaction<Database>;

/**
 * The stored columns of a body: the source as written, and the HTML and reading time the
 * renderer derives from it (through the sanitiser), never taken on trust from a file.
 */
function renderedBody(format: PostFormat, content: string) {
  const rendered = renderPostBody(format, content);
  return { format, content, content_html: rendered.html, reading_minutes: rendered.readingMinutes };
}

function isPostFormat(value: unknown): value is PostFormat {
  return (POST_FORMATS as readonly unknown[]).includes(value);
}

/** The site's title, links and other Settings travel inside `site` under this key. */
const SITE_SETTINGS_KEY = "siteSettings";

export function createPortabilityService({
  db,
  now,
  changes,
  mediaStore,
}: {
  db: Kysely<Database>;
  now: () => Date;
  changes: ContentChanges;
  mediaStore: MediaStore;
}) {
  /** Cached pages that show what an import created go, as after any other write. */
  function announce(changedPosts: Set<string>): void {
    if (changedPosts.size === 0) return;
    changes.publish(["lists", ...[...changedPosts].map((id): ContentTag => postTag(id))]);
  }

  /** The whole blog as one JSON document, yielded a few rows at a time. */
  async function* exportBlog(): AsyncGenerator<string> {
    yield `{"format":"${EXPORT_FORMAT}","version":${EXPORT_VERSION},"exportedAt":${JSON.stringify(now().toISOString())}`;
    const site: Record<string, unknown> = Object.fromEntries(
      (await readAllSettings(db)).map(({ key, value }) => [key, JSON.parse(value)]),
    );
    const siteSettings = await findSiteSettings(db);
    if (siteSettings) site[SITE_SETTINGS_KEY] = siteSettings.value;
    yield `,"site":${JSON.stringify(site)}`;
    for (const section of Object.keys(EXPORTED_SECTIONS) as ExportSection[]) {
      yield `,${JSON.stringify(section)}:[`;
      const key = EXPORTED_SECTIONS[section].key;
      let after: string | undefined;
      let separator = "";
      for (;;) {
        const page = await readExportPage(db, section, after, EXPORT_PAGE_SIZE);
        const tags =
          section === "posts"
            ? await readTagsOfPosts(
                db,
                page.map((row) => String(row.id)),
              )
            : undefined;
        let chunk = "";
        for (const row of page) {
          const json = toJsonRow(row);
          if (tags) json.tags = tags.get(String(row.id)) ?? [];
          chunk += separator + JSON.stringify(json);
          separator = ",";
        }
        if (chunk) yield chunk;
        if (page.length < EXPORT_PAGE_SIZE) break;
        after = String(page[page.length - 1]?.[key]);
      }
      yield "]";
    }
    yield "}\n";
  }

  /**
   * The export and every uploaded image as one zip: the JSON document, the images' records
   * (media.json) and each stored file at its URL path (media/{hash}/{original|width}.{format}).
   * Files are read one at a time as the zip is written, so memory stays flat.
   */
  function exportArchive(): Readable {
    const zip = new ZipFile();
    const output = Readable.from(zip.outputStream);
    zip.addReadStreamLazy(ARCHIVE_EXPORT_NAME, (done) => done(null, Readable.from(exportBlog())));
    const listFiles = async () => {
      const records: Record<string, unknown>[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await readMediaExportPage(db, after, MEDIA_PAGE_SIZE);
        records.push(...page.map(toJsonRow));
        for (const file of await readMediaFileKeys(
          db,
          page.map((row) => String(row.hash)),
        )) {
          const name = `media/${file.hash}/${file.width === 0 ? "original" : file.width}.${file.format}`;
          // Images are compressed already; storing them as they are saves the CPU for nothing.
          zip.addReadStreamLazy(name, { compress: false }, (done) => {
            mediaStore.get(file.hash, file.width, file.format as ImageFormat).then(
              (stored) => done(null, Readable.from(stored ? [stored.bytes] : [])),
              (error: unknown) => done(error, Readable.from([])),
            );
          });
        }
        if (page.length < MEDIA_PAGE_SIZE) break;
        after = String(page[page.length - 1]?.hash);
      }
      zip.addBuffer(Buffer.from(JSON.stringify(records)), ARCHIVE_MEDIA_NAME);
      zip.end();
    };
    listFiles().catch((error: unknown) => output.destroy(error as Error));
    return output;
  }

  /** Reads an export of any kind we know; changes nothing unless the whole file imports. */
  async function importBlog(content: string, options: ImportOptions): Promise<ImportReport> {
    if (Buffer.byteLength(content) > IMPORT_MAX_BYTES) refuseTooLarge();
    const start = content.trimStart().charAt(0);
    if (start === "<") {
      return applyForeign(await readWordPressExport(content, options), options);
    }
    if (start !== "{") refuse("This file is neither JSON nor XML: expected an Inkwell, Ghost or WordPress export.");
    let document: unknown;
    try {
      document = parseExportJson(content);
    } catch (error) {
      refuse(`The file is not complete JSON (${(error as Error).message}). Was it cut short?`);
    }
    if (typeof document !== "object" || document === null || Array.isArray(document)) refuse("Unknown JSON export.");
    const json = document as Record<string, unknown>;
    if (json.format === EXPORT_FORMAT) return applyOwn(checkOwnVersion(json), options);
    if (Array.isArray(json.db)) return applyForeign(readGhostExport(json, options), options);
    refuse("Unknown JSON export: expected an Inkwell export or a Ghost export.");
  }

  /**
   * The .zip export: the images' files go to the media store first (as an upload does, so a
   * record never points at missing files), then their records, posts and comments in one
   * transaction. If that fails, the files of images this blog did not have are removed again.
   */
  async function importArchive(path: string, options: ImportOptions): Promise<ImportReport> {
    const archive = await openArchive(path);
    const added: string[] = [];
    try {
      let document: unknown;
      try {
        document = parseExportJson(archive.json);
      } catch (error) {
        refuse(`${ARCHIVE_EXPORT_NAME} is not complete JSON (${(error as Error).message}).`);
      }
      if (
        typeof document !== "object" ||
        document === null ||
        (document as { format?: unknown }).format !== EXPORT_FORMAT
      ) {
        refuse(`${ARCHIVE_EXPORT_NAME} is not an Inkwell export.`);
      }
      const json = checkOwnVersion(document as Record<string, unknown>);
      const warnings: string[] = [];
      const skipped: ImportReport["skipped"] = [];
      const images: ArchivedMedia[] = [];
      for (const record of archive.media) {
        if (await findMedia(db, record.hash)) {
          skipped.push({ item: `image ${record.originalName}`, reason: "this blog has it already" });
          continue;
        }
        const files = archive.files.filter((file) => file.hash === record.hash);
        if (!files.some((file) => file.width === 0)) {
          skipped.push({ item: `image ${record.originalName}`, reason: "its original file is not in the archive" });
          continue;
        }
        added.push(record.hash);
        // One file at a time: an image's files are read, checked and stored before the next.
        for (const file of files) {
          const bytes = await archive.readFile(file);
          const sharp = await loadSharp();
          const metadata = await sharp(bytes)
            .metadata()
            .catch(() => refuse(`${file.entry.fileName} is not an image.`));
          await mediaStore.put(record.hash, [
            { width: file.width, height: metadata.height, format: file.format, bytes },
          ]);
        }
        images.push(record);
      }
      const known = new Set(archive.media.map((record) => record.hash));
      const orphans = new Set(archive.files.filter((file) => !known.has(file.hash)).map((file) => file.hash));
      if (orphans.size > 0)
        warnings.push(`${orphans.size} images in media/ have no record in ${ARCHIVE_MEDIA_NAME}; left out`);
      if (archive.ignored.length > 0) {
        warnings.push(`files this blog does not know, left out: ${archive.ignored.slice(0, 10).join(", ")}`);
      }
      const report = await applyOwn(json, options, async (trx) => {
        for (const image of images) await insertMedia(trx, image);
      });
      report.skipped.unshift(...skipped);
      report.warnings.push(...warnings);
      if (images.length > 0) report.warnings.unshift(`${images.length} images imported with their files`);
      return report;
    } catch (error) {
      for (const hash of added) await mediaStore.delete(hash);
      throw error;
    } finally {
      archive.close();
    }
  }

  async function applyOwn(
    document: Record<string, unknown>,
    options: ImportOptions,
    /** Runs first inside the import's transaction (an archive's image records). */
    before?: (trx: Trx) => Promise<void>,
  ): Promise<ImportReport> {
    const report: ImportReport = {
      format: "inkwell",
      created: { posts: 0, comments: 0, settings: 0 },
      skipped: [],
      warnings: [],
    };
    const sections = Object.fromEntries(
      (Object.keys(EXPORTED_SECTIONS) as ExportSection[]).map((section) => {
        const rows = document[section] ?? [];
        if (!Array.isArray(rows)) refuse(`The export's "${section}" is not a list.`);
        return [section, rows.map((row, index) => readOwnRow(section, row, index, report))];
      }),
    ) as Record<ExportSection, Record<string, unknown>[]>;
    const site = document.site ?? {};
    if (typeof site !== "object" || site === null || Array.isArray(site))
      refuse('The export\'s "site" is not an object.');

    const changedPosts = new Set<string>();
    await db.transaction().execute(async (trx) => {
      await before?.(trx);
      const importedPosts = new Set<string>();
      for (const row of sections.posts) {
        const id = String(row.id);
        if (await rowExists(trx, "posts", id)) {
          report.skipped.push({ item: `post “${String(row.title)}”`, reason: "a post with its id already exists" });
          continue;
        }
        const category = isCategoryName(row.category) ? row.category : options.defaultCategory;
        if (category !== row.category) {
          report.warnings.push(
            `“${String(row.title)}” had the unknown category ${String(row.category)}; filed under ${category}`,
          );
        }
        const { tags, ...columns } = row;
        const label = `“${String(row.title)}”`;
        const missingImages = await countMissingImages(trx, `${String(row.cover_image ?? "")}\n${String(row.content)}`);
        if (missingImages > 0) {
          report.warnings.push(
            `${label} shows ${missingImages} uploaded images this blog does not have (/media/…): import the .zip export, which carries them`,
          );
        }
        await insertImportedPost(
          trx,
          {
            ...(columns as PostRow),
            category,
            // An address another post here already has is made free, as for a new post.
            slug: await firstFreeSlug(toSlug(String(row.slug ?? "")) || slugFromTitle(String(row.title)), (slug) =>
              isSlugTaken(trx, slug),
            ),
            ...renderedBody(isPostFormat(row.format) ? row.format : "html", String(row.content)),
          },
          keptTags(label, Array.isArray(tags) ? tags.map(String) : [], report),
        );
        importedPosts.add(id);
        changedPosts.add(id);
        report.created.posts += 1;
      }
      for (const row of sections.comments) {
        const id = String(row.id);
        if (await rowExists(trx, "comments", id)) {
          report.skipped.push({ item: `comment ${id}`, reason: "a comment with its id already exists" });
          continue;
        }
        if (!importedPosts.has(String(row.post_id)) && !(await rowExists(trx, "posts", String(row.post_id)))) {
          report.skipped.push({ item: `comment ${id}`, reason: "its post is not in the export" });
          continue;
        }
        if (!COMMENT_STATUSES.includes(row.status as CommentStatus)) refuse(`Comment ${id} has an unknown status.`);
        await insertImportedComment(trx, row as CommentRow);
        changedPosts.add(String(row.post_id));
        report.created.comments += 1;
      }
      for (const row of sections.revisions ?? []) {
        const id = String(row.id);
        if (await rowExists(trx, "revisions", id)) continue;
        // A revision belongs to the post it came with; one whose post was skipped stays behind with it.
        if (!importedPosts.has(String(row.post_id))) continue;
        if (!["save", "autosave", "restore"].includes(String(row.kind)) || !isPostFormat(row.format)) {
          refuse(`Revision ${id} has an unknown kind or format.`);
        }
        await insertImportedRevision(trx, row as RevisionRow);
      }
      for (const row of sections.importSources) {
        if ((await findImportTarget(trx, String(row.source_key))) === undefined) {
          await recordImportSource(trx, String(row.source_key), String(row.target_id));
        }
      }
      for (const [key, value] of Object.entries(site)) {
        if (key === SITE_SETTINGS_KEY) {
          const parsed = siteSettingsSchema.partial().safeParse(value);
          if (!parsed.success) {
            report.skipped.push({
              item: "site settings",
              reason: parsed.error.issues[0]?.message ?? "they are not valid",
            });
          } else if ((await findSiteSettingsVersion(trx)) > 0) {
            report.skipped.push({ item: "site settings", reason: "this blog has its own" });
          } else {
            await saveSiteSettings(trx, parsed.data, now().toISOString());
            report.created.settings += 1;
          }
          continue;
        }
        if (await settingExists(trx, key)) {
          report.skipped.push({ item: `setting ${key}`, reason: "this blog has its own" });
          continue;
        }
        await insertSetting(trx, key, JSON.stringify(value));
        report.created.settings += 1;
      }
    });
    announce(changedPosts);
    if (sections.users.length > 0) {
      report.warnings.push(
        `${sections.users.length} users not imported: an export carries no passwords. Create admins with npm run blog -- create-admin.`,
      );
    }
    return report;
  }

  async function applyForeign(source: ForeignExport, options: ImportOptions): Promise<ImportReport> {
    const report: ImportReport = {
      format: source.format,
      created: { posts: 0, comments: 0, settings: 0 },
      skipped: [...source.skipped],
      warnings: [...source.warnings],
    };
    const categoryMap = new Map(
      Object.entries(options.categoryMap).map(([name, category]) => [name.toLowerCase(), category]),
    );
    let externalImages = 0;
    let ghostSiteLinks = 0;
    const importedAt = now().toISOString();

    const changedPosts = new Set<string>();
    await db.transaction().execute(async (trx: Trx) => {
      for (const post of source.posts) {
        let postId = await findImportTarget(trx, post.sourceKey);
        if (postId !== undefined) {
          report.skipped.push({ item: post.label, reason: "imported before" });
        } else {
          postId = newId();
          const category = chooseCategory(post.terms, categoryMap);
          if (!category) {
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
          externalImages += [...content.matchAll(/<img\b[^>]*\bsrc="https?:\/\//gi)].length;
          report.warnings.push(...post.notes);
          const createdAt = post.createdAt ?? importedAt;
          await insertImportedPost(
            trx,
            {
              id: postId,
              title: (post.title || "Untitled").slice(0, POST_LIMITS.title),
              slug: await firstFreeSlug(toSlug(post.slug) || slugFromTitle(post.title || "Untitled"), (slug) =>
                isSlugTaken(trx, slug),
              ),
              ...renderedBody("html", content.slice(0, POST_LIMITS.content)),
              excerpt: (
                post.excerpt || htmlToText(content).replace(/\s+/g, " ").trim().slice(0, EXCERPT_FROM_BODY)
              ).slice(0, POST_LIMITS.excerpt),
              author: (post.author || "Anonymous").slice(0, POST_LIMITS.author),
              cover_image: keepsCover ? coverImage.slice(0, POST_LIMITS.coverImage) : "",
              category: category ?? options.defaultCategory,
              published: post.published ? 1 : 0,
              publish_at: post.publishAt ?? null,
              comments_closed: post.commentsClosed ? 1 : 0,
              created_at: createdAt,
              updated_at: post.updatedAt ?? createdAt,
            },
            keptTags(
              post.label,
              post.tags.map((tag) => tag.slice(0, POST_LIMITS.tag)),
              report,
            ),
          );
          await recordImportSource(trx, post.sourceKey, postId);
          changedPosts.add(postId);
          report.created.posts += 1;
        }
        for (const comment of post.comments) {
          if ((await findImportTarget(trx, comment.sourceKey)) !== undefined) {
            report.skipped.push({ item: `comment by ${comment.author} on ${post.label}`, reason: "imported before" });
            continue;
          }
          if (!comment.content) {
            report.skipped.push({ item: `comment by ${comment.author} on ${post.label}`, reason: "it is empty" });
            continue;
          }
          const commentId = newId();
          await insertImportedComment(trx, {
            id: commentId,
            post_id: postId,
            author: (comment.author || "Anonymous").slice(0, COMMENT_AUTHOR_MAX),
            content: comment.content.slice(0, COMMENT_CONTENT_MAX),
            created_at: comment.createdAt ?? post.createdAt ?? importedAt,
            status: comment.status,
            held_reason: comment.status === "approved" ? null : `Imported from ${source.format} as ${comment.status}`,
          });
          await recordImportSource(trx, comment.sourceKey, commentId);
          changedPosts.add(postId);
          report.created.comments += 1;
        }
      }
    });
    announce(changedPosts);
    if (ghostSiteLinks > 0) {
      report.warnings.push(
        `${ghostSiteLinks} images or links in post bodies point at the Ghost site's own files (${GHOST_SITE_URL}/…); they will not work here until those files are copied and the addresses changed`,
      );
    }
    if (externalImages > 0) {
      report.warnings.push(`${externalImages} images are left as links to their original site`);
    }
    return report;
  }

  return { exportBlog, exportArchive, importBlog, importArchive };
}

function checkOwnVersion(document: Record<string, unknown>): Record<string, unknown> {
  if (document.version !== EXPORT_VERSION) {
    refuse(`This is a version ${String(document.version)} Inkwell export; this blog reads version ${EXPORT_VERSION}.`);
  }
  return document;
}

export function refuseTooLarge(): never {
  throw new DomainError("IMPORT_TOO_LARGE", IMPORT_TOO_LARGE_MESSAGE);
}

/**
 * A post's tags as the editor would keep them (trimmed, each once whatever its case, at most
 * POST_LIMITS.tags); the report names the post whose tags were cut.
 */
function keptTags(label: string, tags: string[], report: ImportReport): string[] {
  const unique = uniqueNonEmptyTags(tags);
  if (unique.length > POST_LIMITS.tags) {
    report.warnings.push(
      `${label} had ${unique.length} tags; the first ${POST_LIMITS.tags} are kept, ${unique.length - POST_LIMITS.tags} left out`,
    );
  }
  return unique.slice(0, POST_LIMITS.tags);
}

/** Uploaded images (`/media/{hash}/…`) a text shows that this blog does not have. */
async function countMissingImages(trx: Trx, text: string): Promise<number> {
  const hashes = mediaHashesIn(text);
  if (hashes.length === 0) return 0;
  return hashes.length - (await findMediaByHashes(trx, hashes)).length;
}

function isCategoryName(value: unknown): value is Category {
  return (CATEGORIES as readonly unknown[]).includes(value);
}

/** The first source term the writer mapped, else the first that is already one of our categories. */
function chooseCategory(terms: string[], categoryMap: Map<string, Category>): Category | undefined {
  for (const term of terms) {
    const mapped = categoryMap.get(term.toLowerCase());
    if (mapped) return mapped;
  }
  return CATEGORIES.find((category) => terms.some((term) => term.toLowerCase() === category.toLowerCase()));
}

/** One row of our own export, back in column names; unknown properties are reported, not stored. */
const INTEGER_COLUMNS = new Set(["published", "comments_closed", "number", "reading_minutes"]);
const NULLABLE_COLUMNS = new Set(["publish_at", "held_reason"]);

/**
 * One value as the column takes it: a whole number, a time (stored as ISO), or text. Anything
 * else (a list, an object, a boolean) is refused here, before it reaches a database that would
 * fail on it.
 */
function readOwnValue(column: string, value: unknown, where: string): unknown {
  if (INTEGER_COLUMNS.has(column)) {
    if (typeof value === "number" && Number.isSafeInteger(value)) return value;
    refuse(`${where} is not a whole number.`);
  }
  if (value === null) {
    if (NULLABLE_COLUMNS.has(column)) return null;
    refuse(`${where} is missing.`);
  }
  if (column.endsWith("_at")) {
    const time = typeof value === "string" ? new Date(value) : undefined;
    if (time && !Number.isNaN(time.getTime())) return time.toISOString();
    refuse(`${where} is not a date and time.`);
  }
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  refuse(`${where} is not text.`);
}

function readOwnRow(
  section: ExportSection,
  value: unknown,
  index: number,
  report: ImportReport,
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    refuse(`${section}[${index}] is not an object.`);
  const json = value as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  const known = new Set<string>(section === "posts" ? ["tags"] : []);
  for (const column of EXPORTED_SECTIONS[section].columns) {
    const key = camelCase(column);
    known.add(key);
    if (key in json) row[column] = readOwnValue(column, json[key], `${section}[${index}].${key}`);
  }
  if (section === "posts") row.tags = json.tags;
  const unknown = Object.keys(json).filter((key) => !known.has(key));
  const warning = `${section} carry fields this blog does not know, left out: ${unknown.join(", ")}`;
  if (unknown.length > 0 && !report.warnings.includes(warning)) report.warnings.push(warning);
  return row;
}
