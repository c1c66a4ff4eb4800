// Moving back in from our own export (export.ts writes it), as JSON or as the .zip with images:
// everything in one transaction, or nothing. Why it is built this way: docs/decisions/0009.
import { COMMENT_STATUSES, type CommentStatus } from "#domain/comment.ts";
import {
  SUBSCRIBER_SOURCES,
  SUBSCRIBER_STATES,
  type SubscriberSource,
  type SubscriberState,
  subscribeSchema,
} from "#domain/newsletter.ts";
import { EXPORT_FORMAT, EXPORT_VERSION, type ImportOptions, type ImportReport } from "#domain/portability.ts";
import { siteSettingsSchema } from "#domain/site-settings.ts";
import { CATEGORY_LIMITS, categorySlug } from "#domain/categories.ts";
import { findMedia, insertMedia, loadSharp, type MediaStore } from "../media/index.ts";
import {
  EXPORTED_SECTIONS,
  type CommentRow,
  type ExportSection,
  findImportTarget,
  insertImportedComment,
  insertImportedRevision,
  insertSetting,
  recordImportSource,
  type RevisionRow,
  rowExists,
  settingExists,
} from "./repositories/portability.ts";
import { recordAnnouncedWithoutSending } from "../fediverse/index.ts";
import { insertPosts, isSlugTaken, type NewPost, postFieldsFromRow } from "../posts/index.ts";
import { findSiteSettingsVersion, saveSiteSettings } from "../site/index.ts";
import { insertSubscribers, type SubscriberRow } from "../newsletter/index.ts";
import { firstFreeSlug, slugFromTitle, toSlug } from "../kernel/slugs.ts";
import { exportKey, SITE_SETTINGS_KEY } from "./export.ts";
import { ARCHIVE_EXPORT_NAME, ARCHIVE_MEDIA_NAME, type ArchivedMedia, openArchive } from "./import-archive.ts";
import { isObject, parseExportJson } from "./import-formats.ts";
import { announceImportedPages, importOwnPages } from "./import-pages.ts";
import {
  announceImported,
  categoryFiler,
  countMissingImages,
  emptyReport,
  type ImportDeps,
  isPostFormat,
  keptTags,
  missingImagesWarning,
  refuse,
  type Trx,
} from "./import-report.ts";
import { restoreSiteImages, withStoredSiteImages } from "./import-site-images.ts";

/** Our export of another version is refused whole: its columns may mean something else. */
export function checkOwnVersion(document: Record<string, unknown>): Record<string, unknown> {
  if (document.version !== EXPORT_VERSION) {
    refuse(`This is a version ${String(document.version)} Inkwell export; this blog reads version ${EXPORT_VERSION}.`);
  }
  return document;
}

export async function importOwn(
  { db, now, changes }: ImportDeps,
  document: Record<string, unknown>,
  options: ImportOptions,
  /** Runs first inside the import's transaction (an archive's image records). */
  before?: (trx: Trx) => Promise<void>,
): Promise<ImportReport> {
  const report = emptyReport("inkwell");
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
  let changedPages = new Set<string>();
  let subscribersAdded = 0;
  await db.transaction().execute(async (trx) => {
    await before?.(trx);
    const filer = await categoryFiler(trx, report);
    const categories = (sections.categories ?? []).toSorted((a, b) => Number(a.position) - Number(b.position));
    for (const row of categories) {
      if (typeof row.name === "string" && categorySlug(row.name) !== "") {
        await filer.adopt(row.name.slice(0, CATEGORY_LIMITS.name), String(row.description ?? ""));
      }
    }
    const importedPosts = new Set<string>();
    for (const row of sections.posts) {
      const id = String(row.id);
      if (await rowExists(trx, "posts", id)) {
        report.skipped.push({ item: `post “${String(row.title)}”`, reason: "a post with its id already exists" });
        continue;
      }
      // A category of the exported blog that this one lacks is created; a row without one takes the default.
      const named =
        typeof row.category === "string" && categorySlug(row.category) !== ""
          ? row.category.slice(0, CATEGORY_LIMITS.name)
          : undefined;
      const category = await filer.file(named ?? options.defaultCategory);
      if (named === undefined) {
        report.warnings.push(
          `“${String(row.title)}” had the unknown category ${String(row.category)}; filed under ${category}`,
        );
      }
      const { tags, ...columns } = row;
      const label = `“${String(row.title)}”`;
      const missingImages = await countMissingImages(trx, `${String(row.cover_image ?? "")}\n${String(row.content)}`);
      if (missingImages > 0) report.warnings.push(missingImagesWarning(label, missingImages));
      await insertPosts(trx, [
        {
          // Columns the export leaves out take the database's defaults, as in an older export.
          ...(postFieldsFromRow(columns) as NewPost),
          category,
          // An address another post here already has is made free, as for a new post.
          slug: await firstFreeSlug(toSlug(String(row.slug ?? "")) || slugFromTitle(String(row.title)), (slug) =>
            isSlugTaken(trx, slug),
          ),
          content: String(row.content),
          tags: keptTags(label, Array.isArray(tags) ? tags.map(String) : [], report),
        },
      ]);
      importedPosts.add(id);
      changedPosts.add(id);
      report.created.posts += 1;
    }
    // Restored posts reach followers only if they are new to them: each is recorded as sent.
    await recordAnnouncedWithoutSending(trx, { postIds: [...importedPosts], at: now().toISOString() });
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
    changedPages = await importOwnPages(trx, sections.pages, sections.pageRevisions, report, now().toISOString());
    subscribersAdded = await importSubscribers(trx, sections.subscribers ?? [], report);
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
          const settings = await withStoredSiteImages(trx, parsed.data, report.warnings);
          await saveSiteSettings(trx, settings, now().toISOString());
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
  announceImported(changes, changedPosts);
  announceImportedPages(changes, changedPages);
  // Said beside the counts, as an archive's images are: the report's counts are content.
  if (subscribersAdded > 0) report.warnings.unshift(`${subscribersAdded} subscribers imported with their state`);
  if (sections.users.length > 0) {
    report.warnings.push(
      `${sections.users.length} users not imported: an export carries no passwords. Create admins with npm run blog -- create-admin.`,
    );
  }
  return report;
}

/**
 * The .zip export: the images' files go to the media store first (as an upload does, so a
 * record never points at missing files), then their records, posts and comments in one
 * transaction. If that fails, the files of images this blog did not have are removed again.
 */
export async function importArchive(
  deps: ImportDeps & { mediaStore: MediaStore },
  path: string,
  options: ImportOptions,
): Promise<ImportReport> {
  const { db, mediaStore } = deps;
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
        await mediaStore.put(record.hash, [{ width: file.width, height: metadata.height, format: file.format, bytes }]);
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
    // The logo and icon only come with the settings that name them: not into a blog with its own.
    const siteSettings = isObject(json.site) ? json.site[SITE_SETTINGS_KEY] : undefined;
    const siteImages =
      (await findSiteSettingsVersion(db)) > 0
        ? { added: [], names: [] }
        : await restoreSiteImages(mediaStore, siteSettings, archive.siteFiles, archive.readFile);
    added.push(...siteImages.added);
    const report = await importOwn(deps, json, options, async (trx) => {
      for (const image of images) await insertMedia(trx, image);
    });
    report.skipped.unshift(...skipped);
    report.warnings.push(...warnings);
    if (images.length > 0) report.warnings.unshift(`${images.length} images imported with their files`);
    if (siteImages.names.length > 0)
      report.warnings.push(`${siteImages.names.join(" and ")} imported with their files`);
    return report;
  } catch (error) {
    for (const hash of added) await mediaStore.delete(hash);
    throw error;
  } finally {
    archive.close();
  }
}

/** Rows per statement when subscribers are imported. */
const SUBSCRIBER_BATCH = 500;

/**
 * Subscribers keep their id (their unsubscribe links name it), state and times. One whose id or
 * address this blog has already is left as it is here: an unsubscription on either side stands.
 */
async function importSubscribers(trx: Trx, rows: Record<string, unknown>[], report: ImportReport): Promise<number> {
  const valid: SubscriberRow[] = rows.map((row, index) => {
    const email = subscribeSchema.safeParse({ email: row.email });
    if (!email.success) refuse(`subscribers[${index}].email is not a valid email address.`);
    if (!SUBSCRIBER_STATES.includes(row.state as SubscriberState)) refuse(`Subscriber ${index} has an unknown state.`);
    if (row.created_at === undefined) refuse(`subscribers[${index}].createdAt is missing.`);
    const source = SUBSCRIBER_SOURCES.includes(row.source as SubscriberSource) ? row.source : "import";
    return { ...row, email: email.data.email, source } as SubscriberRow;
  });
  let added = 0;
  for (let start = 0; start < valid.length; start += SUBSCRIBER_BATCH) {
    added += await insertSubscribers(trx, valid.slice(start, start + SUBSCRIBER_BATCH));
  }
  if (added < valid.length) {
    report.skipped.push({
      item: `${valid.length - added} subscribers`,
      reason: "their address or id is on this blog's list already",
    });
  }
  return added;
}

/**
 * Columns a row cannot do without: the database has no default for them, and a post's or
 * comment's text must not become the word "undefined". Other posts columns take the
 * schema's defaults, as for an older export.
 */
const REQUIRED_COLUMNS: { readonly [Section in ExportSection]?: readonly string[] } = {
  categories: ["name"],
  posts: ["id", "title", "content"],
  comments: ["id", "post_id", "author", "content", "created_at", "status"],
  revisions: ["id", "post_id", "number", "kind", "saved_by", "title", "content", "format", "created_at"],
  pages: ["id", "title", "content", "format", "created_at", "updated_at"],
  pageRevisions: ["id", "page_id", "number", "kind", "saved_by", "title", "content", "format", "created_at"],
};

/** One row of our own export, back in column names; unknown properties are reported, not stored. */
const INTEGER_COLUMNS = new Set([
  "published",
  "comments_closed",
  "webmentions_off",
  "number",
  "reading_minutes",
  "bounces",
  "show_last_updated",
  "position",
]);
const NULLABLE_COLUMNS = new Set([
  "publish_at",
  "held_reason",
  "parent_id",
  "author_user_id",
  "confirmed_at",
  "unsubscribed_at",
  "built_in",
  "edited_at",
]);

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
    const key = exportKey(column);
    known.add(key);
    if (key in json) row[column] = readOwnValue(column, json[key], `${section}[${index}].${key}`);
    else if (REQUIRED_COLUMNS[section]?.includes(column)) refuse(`${section}[${index}].${key} is missing.`);
  }
  if (section === "posts") row.tags = json.tags;
  const unknown = Object.keys(json).filter((key) => !known.has(key));
  const warning = `${section} carry fields this blog does not know, left out: ${unknown.join(", ")}`;
  if (unknown.length > 0 && !report.warnings.includes(warning)) report.warnings.push(warning);
  return row;
}
