import type { Kysely, Transaction } from "kysely";
import {
  isPublicAt,
  localDateTimeToUtc,
  newsletterAfterSave,
  postStatus,
  type PostStatus,
  type PostDraft,
  type PostFormat,
  type PostSaveInput,
} from "#domain/post.ts";
import { ADMIN_POSTS_PER_PAGE, type Page } from "#domain/pagination.ts";
import type { Dialect } from "../kernel/db/connect.ts";
import type { Database } from "../kernel/db/schema.ts";
import { DomainError } from "#domain/errors.ts";
import { type ContentChanges, createContentChanges, postTag } from "../kernel/content-changes.ts";
import { firstFreeSlug, slugFromTitle, toSlug } from "../kernel/slugs.ts";
import * as categories from "./repositories/categories.ts";
import * as revisions from "./repositories/post-revisions.ts";
import * as posts from "./repositories/posts.ts";
import * as publicPosts from "./repositories/posts-public.ts";
import * as previewTokens from "./repositories/preview-tokens.ts";
import { type LinkPreviews, linksToPreview, renderPostBody } from "../render/index.ts";
import { createWritersDesk } from "./writers-desk.ts";
import { createPublicPostReads } from "./public-reads.ts";
import { changeEachPost } from "./bulk-changes.ts";
import type { BulkPostChange, BulkPostOutcome } from "#domain/post-bulk.ts";
import type { Post, PostListFilter, PostSummary } from "#domain/post.ts";
import type { Actor, AuditLog } from "../accounts/index.ts";
import { type PeriodicWorker, periodicWorker, type WorkerErrorReporter } from "../kernel/workers.ts";

/**
 * A post's life as readers see it, and what follows from it. A save moves a post between hidden
 * (a draft, or scheduled ahead) and public, and the clock makes a scheduled post public when its
 * time comes. Each capability that follows posts hooks onto the moments it cares about; they are
 * registered side by side in server/composition.ts (the newsletter, the fediverse).
 */
export interface PostLife {
  /** Readers see the post for the first time: a save published it, or its scheduled time came. */
  becamePublic?: PostLifeHook & {
    /**
     * The clock's door, for posts public with no save: each server's `scheduledPosts` worker calls
     * it at every look, `arrived` when a scheduled post's time came since the last (and at the
     * first look, for those that came while no server looked). It runs on every server: the
     * hook's own claims keep its work to once.
     */
    byClock?: (arrived: boolean) => Promise<unknown>;
  };
  /** A save changed a post readers see. */
  changedWhilePublic?: PostLifeHook;
  /** A save unpublished the post or moved it ahead, or it was deleted. */
  stoppedBeingPublic?: PostLifeHook;
}

export type PostLifeMoment = keyof PostLife;

export interface PostLifeHook {
  /**
   * Durable work that commits with the save (the post, its audit entry) or not at all, as a
   * post's email. Asked with the draft before the save's transaction opens, since on SQLite the
   * transaction holds the one connection and a read beside it would wait; run inside it.
   * A restore or a delete has no save: it runs `withoutSave` instead.
   */
  inSave?: (draft: PostDraft) => Promise<SaveWork | undefined>;
  /** Once any write committed, a save, a restore or a delete: a nudge to a worker, which would have found nothing before. */
  afterCommit?: (post: Post) => void;
  /**
   * Once a restore or a delete committed: the work `inSave` does for a save, done afterwards in a
   * transaction of its own, as these writes run no save's hooks.
   */
  withoutSave?: (post: Post) => void;
}

/** What a hook does inside a save's transaction, and the nudge it needs once that commits. */
export interface SaveWork {
  run: (post: Post, trx: Transaction<Database>) => Promise<Post>;
  afterCommit: () => void;
}

/** Where a write takes a post, as readers see it: a moment of its life, or none (a draft edited). */
function momentOf(
  before: Pick<Post, "published" | "publishAt"> | undefined,
  after: Pick<Post, "published" | "publishAt"> | undefined,
  at: Date,
): PostLifeMoment | undefined {
  const wasPublic = before !== undefined && isPublicAt(before, at);
  const isPublic = after !== undefined && isPublicAt(after, at);
  if (isPublic) return wasPublic ? "changedWhilePublic" : "becamePublic";
  return wasPublic ? "stoppedBeingPublic" : undefined;
}

/** How often each server looks whether a scheduled post's time has come. */
const SCHEDULE_CHECK_MS = 2_000;

/** Changes made outside a signed-in request (demo content, tests) are the blog's own. */
const SYSTEM_WRITER: Writer = { label: "system", email: "" };

const UNKNOWN_CATEGORY_MESSAGE = "That category no longer exists. Please choose one of the categories.";

export interface PostServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  now: () => Date;
  changes?: ContentChanges;
  /** Picks the related posts; tests pass a fixed one. */
  random?: () => number;
  audit: AuditLog;
  /** What follows from a post's life (PostLife): the newsletter, the fediverse. */
  life?: readonly PostLife[];
  /**
   * Whether email is on (the newsletter's mail server), as this server last read it: a save may ask
   * for an email (newsletterAfterSave). Its settings worker reads it every second, so a save costs no statement.
   */
  isEmailOn?: () => boolean;
  /**
   * The bookmark cards' previews (server/embeds): a save renders them into the body. Missing ones
   * are fetched only when `fetchMissing`: a body written anew, not one saved as it was.
   */
  linkPreviews?: (urls: readonly string[], fetchMissing: boolean) => Promise<LinkPreviews>;
}

/** Who is saving: every revision names the admin who made it. */
/** Who saved a post: named by email in its revisions, and in the audit log. */
export interface Writer extends Actor {
  email: string;
}

/**
 * What a save is given: the fields as written, the publishing time in UTC (kept only for a
 * published post), the email box as `wanted` (newsletterAfterSave decides). The save renders
 * the body (posts/repositories/posts.ts), so reads never render Markdown.
 */
export function toPostDraft(input: PostSaveInput): PostDraft {
  const { publishAt, publishAtOffset, emailSubscribers, ...fields } = input;
  return {
    ...fields,
    // The service puts the post's real slug here (chooseSlug): blank means "from the title".
    slug: fields.slug ?? "",
    publishAt: fields.published && publishAt ? (localDateTimeToUtc(publishAt, publishAtOffset) ?? null) : null,
    newsletter: emailSubscribers ? "wanted" : "off",
  };
}

export function createPostService({
  db,
  dialect,
  now,
  audit,
  random = Math.random,
  changes = createContentChanges(),
  life = [],
  isEmailOn = () => false,
  linkPreviews = async () => new Map(),
}: PostServiceDeps) {
  // Any write to a post can change every list (a card, a count, an order) and its own page.
  const announce = (id: string) => changes.publish(["lists", postTag(id)], "post");
  const timestamp = () => now().toISOString();
  const publicReads = createPublicPostReads({ db, dialect, now, random });
  const requirePost = async (id: string): Promise<Post> => {
    const post = await posts.findPostById(db, id);
    if (!post) throw new DomainError("POST_NOT_FOUND", "Post not found");
    return post;
  };
  const desk = createWritersDesk({
    db,
    now,
    history: revisions.POST_REVISIONS,
    previews: previewTokens.POST_PREVIEWS,
    requireItem: requirePost,
  });

  /** The draft a writer's save stores, its newsletter state following the post's past. */
  function draftToSave(input: PostSaveInput, slug: string, before?: Post): PostDraft {
    const draft = { ...toPostDraft(input), slug };
    return { ...draft, newsletter: newsletterAfterSave(before, draft, isEmailOn(), now()) };
  }

  /** Tells every hook of `moment` that the post's write committed; `saved` when it was a save, whose hooks ran inside it. */
  function afterCommit(moment: PostLifeMoment | undefined, post: Post, saved: boolean): void {
    if (!moment) return;
    for (const hooks of life) {
      hooks[moment]?.afterCommit?.(post);
      if (!saved) hooks[moment]?.withoutSave?.(post);
    }
  }

  /**
   * A save and what follows from it in one transaction: the post, its audit entry (`record`)
   * and the durable work of its moment's hooks (its email), so a failure of any of them (the
   * database gone mid-save) leaves nothing half done, and the writer's answer is the failure.
   * Undefined when `write` found no post.
   */
  async function save(
    before: Post | undefined,
    draft: PostDraft,
    write: (trx: Transaction<Database>) => Promise<Post | undefined>,
    record: (post: Post, trx: Transaction<Database>) => Promise<void>,
  ): Promise<Post | undefined> {
    const moment = momentOf(before, draft, now());
    const work: SaveWork[] = [];
    for (const hooks of moment ? life : []) {
      const prepared = await hooks[moment!]?.inSave?.(draft);
      if (prepared) work.push(prepared);
    }
    const saved = await db.transaction().execute(async (trx) => {
      let post = await write(trx);
      if (!post) return undefined;
      await record(post, trx);
      for (const { run } of work) post = await run(post, trx);
      return post;
    });
    if (!saved) return undefined;
    announce(saved.id);
    for (const done of work) done.afterCommit();
    afterCommit(moment, saved, true);
    return saved;
  }

  /** A post is filed under one of the writer's categories; a choice made on a screen older than a rename or delete is refused. */
  async function refuseUnknownCategory(category: string): Promise<void> {
    if (category !== "" && !(await categories.findCategoryByName(db, category))) {
      throw new DomainError("CATEGORY_UNKNOWN", UNKNOWN_CATEGORY_MESSAGE);
    }
  }

  /**
   * The slug a save gives the post: the writer's own (folded to a slug) must be free, a
   * derived one takes the first free `-2`, `-3`… suffix.
   */
  async function chooseSlug(input: PostSaveInput, postId?: string): Promise<string> {
    const wanted = toSlug(input.slug ?? "");
    const isTaken = (slug: string) => posts.isSlugTaken(db, slug, postId);
    if (wanted === "") return firstFreeSlug(slugFromTitle(input.title), isTaken);
    if (await isTaken(wanted)) throw new DomainError("SLUG_TAKEN", "Another post already uses this slug");
    return wanted;
  }

  return {
    ...publicReads,

    /** A page of every post for the admin list, each with what it is right now: draft, scheduled or published. */
    async listAllPosts(
      filter = "",
      page = 1,
      status?: PostListFilter,
    ): Promise<Page<PostSummary & { status: PostStatus }>> {
      const at = now();
      const only = status ? { status, now: at.toISOString() } : undefined;
      const found = await posts.listAllPosts(db, filter, { page, pageSize: ADMIN_POSTS_PER_PAGE }, only);
      return { ...found, items: found.items.map((post) => ({ ...post, status: postStatus(post, at) })) };
    },

    /** The titles of the posts at these slugs (a page of Analytics' paths, at most). */
    titlesBySlug(slugs: readonly string[]) {
      return posts.findTitlesBySlug(db, slugs);
    },

    /** The dashboard's figures: posts not public yet, as drafts and scheduled ones. */
    countUnpublished(): Promise<{ drafts: number; scheduled: number }> {
      return posts.countDraftsAndScheduled(db, now().toISOString());
    },

    getPostForEditing: requirePost,

    /** The writer is named in the post's revisions; publishing goes into the audit log under their name. */
    async createPost(input: PostSaveInput, writer: Writer = SYSTEM_WRITER): Promise<Post> {
      const at = timestamp();
      await refuseUnknownCategory(input.category);
      const draft = draftToSave(input, await chooseSlug(input));
      const previews = await linkPreviews(linksToPreview(draft.format, draft.content), true);
      const revision = { kind: "save", savedBy: writer.email } as const;
      const created = await save(
        undefined,
        draft,
        async (trx) => {
          const [id] = await posts.insertPosts(trx, [{ ...draft, createdAt: at, updatedAt: at, revision }], previews);
          return posts.findPostById(trx, id!);
        },
        async (post, trx) => {
          if (post.published) await audit.record(writer, "post-published", post.title, trx);
        },
      );
      return created!;
    },

    async updatePost(id: string, input: PostSaveInput, writer: Writer = SYSTEM_WRITER): Promise<Post> {
      const before = await posts.findPostById(db, id);
      if (!before) throw new DomainError("POST_NOT_FOUND", "Post not found");
      await refuseUnknownCategory(input.category);
      const draft = draftToSave(input, await chooseSlug(input, id), before);
      // A save that leaves the body as it was (a publish, a bulk change) fetches no page.
      const bodyChanged = draft.content !== before.content || draft.format !== before.format;
      const previews = await linkPreviews(linksToPreview(draft.format, draft.content), bodyChanged);
      const updated = await save(
        before,
        draft,
        (trx) => posts.updatePost(trx, id, draft, timestamp(), { kind: "save", savedBy: writer.email }, previews),
        async (post, trx) => {
          if (before.published === post.published) return;
          await audit.record(writer, post.published ? "post-published" : "post-unpublished", post.title, trx);
        },
      );
      if (!updated) throw new DomainError("POST_NOT_FOUND", "Post not found");
      return updated;
    },
    /** The editor's preview: the pipeline a save uses, so the writer sees what readers will get. */
    renderPreview(format: PostFormat, content: string) {
      return renderPostBody(format, content);
    },

    autosave: desk.autosave,
    findUnsavedDraft: desk.findUnsavedDraft,
    listRevisions: desk.listRevisions,
    getRevision: desk.getRevision,

    /**
     * Puts a revision's title and body back. The restore is itself a new revision, so the text
     * it replaced stays in the history: nothing is lost by restoring.
     */
    async restoreRevision(id: string, revisionId: string, writer: Writer): Promise<Post> {
      const [post, revision] = await Promise.all([requirePost(id), desk.getRevision(id, revisionId)]);
      const draft: PostDraft = { ...post, title: revision.title, content: revision.content, format: revision.format };
      const previews = await linkPreviews(linksToPreview(draft.format, draft.content), true);
      const restored = await posts.updatePost(
        db,
        id,
        draft,
        timestamp(),
        { kind: "restore", savedBy: writer.email },
        previews,
      );
      if (!restored) throw new DomainError("POST_NOT_FOUND", "Post not found");
      announce(id);
      afterCommit(momentOf(post, restored, now()), restored, false);
      return restored;
    },

    createPreviewLink: desk.createPreviewLink,
    revokePreviewLinks: desk.revokePreviewLinks,
    findPreviewLinkCreatedAt: desk.findPreviewLinkCreatedAt,

    /**
     * The post a preview link shows. A revoked or unknown link, or a post that is public by
     * now (publishing ends previews), is "not found": the link gives nothing away.
     */
    async getPreview(token: string): Promise<Post> {
      const postId = await desk.findPreviewOwnerId(token);
      const post = postId ? await posts.findPostById(db, postId) : undefined;
      const isPublic = post ? await publicPosts.findPublicPostById(db, post.id, timestamp()) : undefined;
      if (!post || isPublic) throw new DomainError("PREVIEW_NOT_FOUND", "This preview link has ended");
      return post;
    },

    /** Deletes the post and every comment on it together; false when there was no such post. */
    async deletePost(id: string, actor: Actor = SYSTEM_WRITER): Promise<boolean> {
      const before = await posts.findPostById(db, id);
      if (!before) return false;
      // The post and its audit entry go together, as a save's do.
      const deleted = await db.transaction().execute(async (trx) => {
        const removed = await posts.deletePost(trx, id, timestamp());
        if (removed) await audit.record(actor, "post-deleted", before.title, trx);
        return removed;
      });
      if (deleted) {
        announce(id);
        afterCommit(momentOf(before, undefined, now()), before, false);
      }
      return deleted;
    },

    /** The posts list's bulk change: each post through `updatePost` or `deletePost` above, one by one (bulk-changes.ts). */
    changePosts(change: BulkPostChange, ids: readonly string[], writer: Writer): Promise<BulkPostOutcome> {
      const find = (id: string) => posts.findPostById(db, id);
      return changeEachPost(
        { find, updatePost: this.updatePost, deletePost: this.deletePost, now },
        change,
        ids,
        writer,
      );
    },

    /**
     * This server's look at the clock, the door scheduled posts enter by: every `becamePublic`
     * hook's `byClock` runs, told whether a scheduled post's time has come since the last look.
     * A look that fails is tried again at the next, so nothing that came due is skipped.
     */
    scheduledPosts(onError: WorkerErrorReporter): PeriodicWorker {
      let lookedAt: string | undefined;
      return periodicWorker({
        name: "scheduled posts",
        everyMs: SCHEDULE_CHECK_MS,
        runAtStart: true,
        onError,
        run: async () => {
          const at = timestamp();
          const next = lookedAt === undefined ? null : await publicPosts.nextScheduledPublishAt(db, lookedAt);
          const arrived = lookedAt === undefined || (next !== null && next <= at);
          for (const hooks of life) await hooks.becamePublic?.byClock?.(arrived);
          lookedAt = at;
        },
      });
    },
  };
}

export type PostService = ReturnType<typeof createPostService>;
