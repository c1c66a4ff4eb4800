import type { ColumnType, ExpressionBuilder, Kysely, Selectable, Transaction } from "kysely";
import type { ImageFormat } from "#domain/media.ts";
import type { Database, MediaTable } from "../../kernel/db/schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** No statement carries more hashes than this; longer lists go in several. */
const CHUNK = 100;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) result.push(items.slice(start, start + CHUNK));
  return result;
}

export interface MediaRecord {
  hash: string;
  originalName: string;
  mime: string;
  format: ImageFormat;
  width: number;
  height: number;
  bytes: number;
  createdAt: string;
  uploadedBy: string;
  unusedSince: string | null;
}

export interface MediaUse {
  hash: string;
  /** The post's id, or the page's when `kind` is "page". */
  postId: string;
  title: string;
  kind: "post" | "page";
}

/**
 * Where image uses are kept: posts' and pages' (migration 0020) share their shape but the
 * column naming the owner. An image is in use while either table names it.
 */
export const POST_MEDIA_USES = { table: "media_uses", owner: "post_id" } as const;
export const PAGE_MEDIA_USES = { table: "page_media_uses", owner: "page_id" } as const;
export type MediaUses = typeof POST_MEDIA_USES | typeof PAGE_MEDIA_USES;

type UseColumns = { hash: string } & Record<MediaUses["owner"], ColumnType<string, string | undefined, string>>;
/** Both tables as one shape, so a statement can name either: only `uses.owner` is ever used of the two owners. */
const usesDb = (db: Db) => db as unknown as Kysely<Record<MediaUses["table"], UseColumns> & Pick<Database, "media">>;

export const MEDIA_COLUMNS = [
  "hash",
  "original_name",
  "mime",
  "width",
  "height",
  "bytes",
  "created_at",
  "uploaded_by",
  "unused_since",
] as const;

const FORMAT_BY_MIME: Record<string, ImageFormat> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/gif": "gif",
};

function toRecord(row: Pick<Selectable<MediaTable>, (typeof MEDIA_COLUMNS)[number]>): MediaRecord {
  return {
    hash: row.hash,
    originalName: row.original_name,
    mime: row.mime,
    format: FORMAT_BY_MIME[row.mime] ?? "jpeg",
    width: Number(row.width),
    height: Number(row.height),
    bytes: Number(row.bytes),
    createdAt: new Date(row.created_at).toISOString(),
    uploadedBy: row.uploaded_by,
    unusedSince: row.unused_since === null ? null : new Date(row.unused_since).toISOString(),
  };
}

/** Records a new image as unused since its upload; a second upload of the same bytes changes nothing. */
export async function insertMedia(db: Db, media: Omit<MediaRecord, "format" | "unusedSince">): Promise<void> {
  await db
    .insertInto("media")
    .values({
      hash: media.hash,
      original_name: media.originalName,
      mime: media.mime,
      width: media.width,
      height: media.height,
      bytes: media.bytes,
      created_at: media.createdAt,
      uploaded_by: media.uploadedBy,
      unused_since: media.createdAt,
    })
    .onConflict((conflict) => conflict.column("hash").doNothing())
    .execute();
}

export async function findMedia(db: Db, hash: string): Promise<MediaRecord | undefined> {
  const row = await db.selectFrom("media").select(MEDIA_COLUMNS).where("hash", "=", hash).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** The images among `hashes` (at most one page's worth per statement). */
export async function findMediaByHashes(db: Db, hashes: readonly string[]): Promise<MediaRecord[]> {
  const found: MediaRecord[] = [];
  for (const chunk of chunks(hashes)) {
    const rows = await db.selectFrom("media").select(MEDIA_COLUMNS).where("hash", "in", chunk).execute();
    found.push(...rows.map(toRecord));
  }
  return found;
}

/** Newest first; one more than `limit` tells the caller there is a next page. */
export async function listMediaPage(db: Db, { limit, offset }: { limit: number; offset: number }) {
  const rows = await db
    .selectFrom("media")
    .select(MEDIA_COLUMNS)
    .orderBy("created_at", "desc")
    .orderBy("hash", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(toRecord);
}

export async function countMedia(db: Db): Promise<number> {
  const row = await db
    .selectFrom("media")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The posts, then the pages, that show these images, with their titles, for one page of the library. */
export async function listMediaUses(db: Db, hashes: readonly string[]): Promise<MediaUse[]> {
  const posts: MediaUse[] = [];
  const pages: MediaUse[] = [];
  for (const chunk of chunks(hashes)) {
    const [postRows, pageRows] = await Promise.all([
      db
        .selectFrom("media_uses")
        .innerJoin("posts", "posts.id", "media_uses.post_id")
        .select(["media_uses.hash", "posts.id as postId", "posts.title"])
        .where("media_uses.hash", "in", chunk)
        .orderBy("posts.created_at", "desc")
        .execute(),
      db
        .selectFrom("page_media_uses")
        .innerJoin("pages", "pages.id", "page_media_uses.page_id")
        .select(["page_media_uses.hash", "pages.id as postId", "pages.title"])
        .where("page_media_uses.hash", "in", chunk)
        .orderBy("pages.title")
        .execute(),
    ]);
    posts.push(...postRows.map((row) => ({ ...row, kind: "post" as const })));
    pages.push(...pageRows.map((row) => ({ ...row, kind: "page" as const })));
  }
  return [...posts, ...pages];
}

/** No post and no page shows the image in `media.hash`. */
function unused(eb: ExpressionBuilder<Database, "media">) {
  return eb.not(
    eb.or([
      eb.exists(eb.selectFrom("media_uses").select("post_id").whereRef("media_uses.hash", "=", "media.hash")),
      eb.exists(eb.selectFrom("page_media_uses").select("page_id").whereRef("page_media_uses.hash", "=", "media.hash")),
    ]),
  );
}

/**
 * Makes the owner's uses exactly `hashes` (those that name a stored image), inside the
 * owner's own save. An image whose last use, by any post or page, goes away is marked unused
 * from `at`, which starts its 30 days before the prune may remove it.
 */
export async function replaceMediaUsesIn(
  uses: MediaUses,
  trx: Transaction<Database>,
  ownerId: string,
  hashes: readonly string[],
  at: string,
): Promise<void> {
  const db = usesDb(trx);
  const previous = await db.selectFrom(uses.table).select("hash").where(uses.owner, "=", ownerId).execute();
  await db.deleteFrom(uses.table).where(uses.owner, "=", ownerId).execute();
  for (const chunk of chunks(hashes)) {
    await db
      .insertInto(uses.table)
      .columns(["hash", uses.owner])
      .expression((eb) =>
        eb
          .selectFrom("media")
          .select(["hash", eb.val(ownerId).as(uses.owner)])
          .where("hash", "in", chunk),
      )
      .execute();
    await trx.updateTable("media").set({ unused_since: null }).where("hash", "in", chunk).execute();
  }
  const kept = new Set(hashes);
  const dropped = previous.map((row) => row.hash).filter((hash) => !kept.has(hash));
  for (const chunk of chunks(dropped)) {
    await trx.updateTable("media").set({ unused_since: at }).where("hash", "in", chunk).where(unused).execute();
  }
}

/** A post's uses, as server/posts/repositories/posts.ts keeps them on every save. */
export function replaceMediaUses(
  trx: Transaction<Database>,
  postId: string,
  hashes: readonly string[],
  at: string,
): Promise<void> {
  return replaceMediaUsesIn(POST_MEDIA_USES, trx, postId, hashes, at);
}

/** Images no post or page has used since before `cutoff`, oldest first. */
export async function listUnusedMedia(db: Db, cutoff: string, limit: number): Promise<MediaRecord[]> {
  const rows = await db
    .selectFrom("media")
    .select(MEDIA_COLUMNS)
    .where("unused_since", "<=", cutoff)
    .orderBy("unused_since")
    .orderBy("hash")
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** Removes the image's record unless a post or page uses it; false when one does (or it was gone). */
export async function deleteUnusedMedia(db: Kysely<Database>, hash: string): Promise<boolean> {
  const result = await db.deleteFrom("media").where("hash", "=", hash).where(unused).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
