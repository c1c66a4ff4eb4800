// Writing posts, and the reads the writer's side needs (drafts included).
import { type Insertable, type Transaction, sql } from "kysely";
import { type Database, POST_COLUMNS, type PostsTable } from "../../kernel/db/schema.ts";
import {
  type Post,
  type PostDraft,
  type PostFields,
  type PostListFilter,
  type PostSummary,
  uniqueNonEmptyTags,
} from "#domain/post.ts";
import { type Page, pageWindow } from "#domain/pagination.ts";
import { type LinkPreviews, renderPostBody } from "../../render/index.ts";
import { recordRevision } from "./post-revisions.ts";
import { replaceMediaUses } from "../../media/index.ts";
import { type Db, inTransaction, newId } from "../../kernel/rows.ts";
import {
  chunk,
  escapeLikePattern,
  INSERT_BATCH_ROWS,
  loadTags,
  mediaUsedBy,
  newestFirst,
  type PageRequest,
  pageOf,
  selectPostsAtAddress,
  SUMMARY_COLUMNS,
  summarise,
  toPost,
  toRow,
} from "./posts-rows.ts";
import { chooseSearchKeys, deleteSearchRow, searchText, writeTagsAndSearch } from "./posts-search.ts";

type PostRow = Insertable<PostsTable>;

/** Who saved, and how, for the revision a save keeps. */
export interface RevisionAuthor {
  kind: "save" | "restore";
  savedBy: string;
}

export async function findPostById(db: Db, id: string): Promise<Post | undefined> {
  const row = await db.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const tags = (await loadTags(db, [id])).get(id) ?? [];
  return toPost(row, tags);
}

/**
 * The id of the post a /blog/{address} URL names, drafts included (selectPostsAtAddress), in
 * one statement. Whether a visitor may read it is for the public queries to decide.
 */
export async function findPostIdByAddress(db: Db, address: string): Promise<string | undefined> {
  const row = await db
    .selectFrom(selectPostsAtAddress(db, address).as("addressed"))
    .select("addressed.id")
    .orderBy("addressed.rank")
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** Whether a post other than `exceptPostId` has this slug now or had it before. */
export async function isSlugTaken(db: Db, slug: string, exceptPostId?: string): Promise<boolean> {
  const owners = await db
    .selectFrom("posts")
    .select("id")
    .where("slug", "=", slug)
    .union(db.selectFrom("post_slug_history").select("post_id as id").where("slug", "=", slug))
    .execute();
  return owners.some((owner) => owner.id !== exceptPostId);
}

export async function postExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom("posts").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/** The titles of the posts at these slugs, drafts too (Analytics names a post it counted). */
export async function findTitlesBySlug(db: Db, slugs: readonly string[]): Promise<Map<string, string>> {
  if (slugs.length === 0) return new Map();
  const rows = await db.selectFrom("posts").select(["slug", "title"]).where("slug", "in", slugs).execute();
  return new Map(rows.map((row) => [row.slug, row.title]));
}

/**
 * Every post, drafts included, newest first: the admin list. `filter` matches title, author or
 * category; `only` keeps the drafts, or the posts whose publishing time is after `now`.
 */
export async function listAllPosts(
  db: Db,
  filter: string,
  request: PageRequest,
  only?: { status: PostListFilter; now: string },
): Promise<Page<PostSummary>> {
  let query = db.selectFrom("posts");
  if (only?.status === "draft") query = query.where("published", "=", 0);
  if (only?.status === "scheduled") query = query.where("published", "=", 1).where("publish_at", ">", only.now);
  const needle = filter.trim().toLowerCase();
  if (needle) {
    const pattern = `%${escapeLikePattern(needle)}%`;
    query = query.where((eb) =>
      eb.or(
        ["title", "author", "category"].map(
          (column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  const { limit, offset } = pageWindow(request.page, request.pageSize);
  const [rows, count] = await Promise.all([
    newestFirst(query.select(SUMMARY_COLUMNS)).limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return pageOf(await summarise(db, rows), Number(count.count), request);
}

async function keepRevision(
  trx: Transaction<Database>,
  postId: string,
  fields: Pick<PostDraft, "title" | "content" | "format">,
  revision: RevisionAuthor,
  createdAt: string,
): Promise<void> {
  await recordRevision(trx, {
    postId,
    kind: revision.kind,
    savedBy: revision.savedBy,
    title: fields.title,
    content: fields.content,
    format: fields.format,
    createdAt,
  });
}

/**
 * A draft as it is stored: its body rendered and sanitised (server/render/post-body.ts), with
 * its reading time, and its tags each once. Every save of a post comes through here, so no
 * caller can store HTML the sanitiser has not seen.
 */
function renderDraft<Draft extends Pick<PostDraft, "format" | "content" | "tags">>(
  draft: Draft,
  previews?: LinkPreviews,
): Draft & Pick<PostFields, "contentHtml" | "readingMinutes"> {
  const rendered = renderPostBody(draft.format, draft.content, previews);
  return {
    ...draft,
    tags: uniqueNonEmptyTags(draft.tags),
    contentHtml: rendered.html,
    readingMinutes: rendered.readingMinutes,
  };
}

/** Fields whose column has a default (Insertable leaves it optional): a writer may leave them out. */
type DefaultedField = {
  [Column in keyof PostsTable]-?: undefined extends PostRow[Column] ? (typeof POST_COLUMNS)[Column]["field"] : never;
}[keyof PostsTable] &
  keyof PostDraft;

/**
 * A post to create: the draft (fields with a column default may be left out, as an older
 * export or a foreign import does), its times, its id when it keeps one (an import), and the
 * revision an editor's save keeps.
 */
export type NewPost = Omit<PostDraft, DefaultedField> &
  Partial<Pick<PostDraft, DefaultedField>> & {
    id?: string;
    createdAt: string;
    updatedAt: string;
    revision?: RevisionAuthor;
  };

/**
 * The one way posts are created (the editor, imports, demo content, benchmark data): in one
 * transaction (the caller's, when given one), with multi-row inserts of at most
 * INSERT_BATCH_ROWS rows, so 100,000 benchmark posts load in one pass. Returns their ids.
 */
export async function insertPosts(db: Db, drafts: readonly NewPost[], previews?: LinkPreviews): Promise<string[]> {
  const posts = drafts.map(({ revision, ...draft }) => ({
    ...renderDraft(draft, previews),
    id: draft.id ?? newId(),
    revision,
  }));
  await inTransaction(db, async (trx) => {
    for (const batch of chunk(posts, INSERT_BATCH_ROWS)) {
      const keys = await chooseSearchKeys(trx, batch);
      await trx
        .insertInto("posts")
        .values(batch.map((post) => ({ ...toRow(post), search_key: keys.get(post.id) ?? null }) as PostRow))
        .execute();
      const tags = batch.flatMap((post) =>
        post.tags.map((tag, position) => ({
          post_id: post.id,
          tag,
          tag_key: tag.toLowerCase(),
          position,
          created_at: post.createdAt,
        })),
      );
      for (const tagBatch of chunk(tags, INSERT_BATCH_ROWS))
        await trx.insertInto("post_tags").values(tagBatch).execute();
      const searched = batch.filter((post) => keys.has(post.id));
      if (searched.length > 0) {
        await trx
          .insertInto("post_search")
          .values(
            searched.map((post) => ({ rowid: keys.get(post.id)!, post_id: post.id, search_text: searchText(post) })),
          )
          .execute();
      }
      for (const post of batch) {
        // A new post has no image uses yet: only those it shows are written.
        const images = mediaUsedBy(post);
        if (images.length > 0) await replaceMediaUses(trx, post.id, images, post.updatedAt);
        if (post.revision) await keepRevision(trx, post.id, post, post.revision, post.updatedAt);
      }
    }
  });
  return posts.map((post) => post.id);
}

/**
 * The one way a post changes (the editor's save, a restored revision): its body rendered again,
 * its history kept, in one transaction (the caller's, when given one).
 */
export async function updatePost(
  db: Db,
  id: string,
  draft: PostDraft,
  updatedAt: string,
  revision?: RevisionAuthor,
  previews?: LinkPreviews,
): Promise<Post | undefined> {
  const fields = renderDraft(draft, previews);
  return inTransaction(db, async (trx) => {
    const before = await trx.selectFrom("posts").select(["slug", "created_at"]).where("id", "=", id).executeTakeFirst();
    if (!before) return undefined;
    if (before.slug !== fields.slug) {
      // The old slug keeps answering (301 to the new one); taking a slug back ends its redirect.
      await trx.deleteFrom("post_slug_history").where("slug", "=", fields.slug).execute();
      await trx
        .insertInto("post_slug_history")
        .values({ slug: before.slug, post_id: id, created_at: updatedAt })
        .execute();
    }
    const result = await trx
      .updateTable("posts")
      .set({ ...toRow(fields), updated_at: updatedAt })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    await writeTagsAndSearch(trx, id, { ...fields, createdAt: before.created_at });
    await replaceMediaUses(trx, id, mediaUsedBy(fields), updatedAt);
    if (revision) await keepRevision(trx, id, fields, revision, updatedAt);
    // Publishing ends every private preview: the post is there for everyone (or will be, at its time).
    if (fields.published) await trx.deleteFrom("post_preview_tokens").where("post_id", "=", id).execute();
    return findPostById(trx, id);
  });
}

/**
 * Deletes the post, its comments, tags, search row, revisions, preview links and image uses in
 * one transaction (the caller's, when given one).
 */
export async function deletePost(db: Db, id: string, at: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await replaceMediaUses(trx, id, [], at);
    await trx.deleteFrom("comments").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_revisions").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_preview_tokens").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_tags").where("post_id", "=", id).execute();
    await deleteSearchRow(trx, id);
    await trx.deleteFrom("post_slug_history").where("post_id", "=", id).execute();
    const result = await trx.deleteFrom("posts").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

export async function countPosts(db: Db): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The dashboard's two post figures in one statement: drafts walk posts_published_id's
 * unpublished range, scheduled posts the short future range of posts_publish_at (`+published`
 * keeps SQLite on that index, as in posts-public.ts); neither grows with the published posts.
 */
export async function countDraftsAndScheduled(db: Db, now: string): Promise<{ drafts: number; scheduled: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("posts")
        .select((inner) => inner.fn.countAll<number | string>().as("count"))
        .where("posts.published", "=", 0)
        .as("drafts"),
      eb
        .selectFrom("posts")
        .select((inner) => inner.fn.countAll<number | string>().as("count"))
        .where("posts.publish_at", ">", now)
        .where(sql<number>`+${sql.ref("posts.published")}`, "=", 1)
        .as("scheduled"),
    ])
    .executeTakeFirstOrThrow();
  return { drafts: Number(row.drafts), scheduled: Number(row.scheduled) };
}
