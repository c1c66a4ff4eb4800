// What Ghost's Admin API does here, over the blog's own services: every write goes through the
// posts service (rendering, sanitising, slugs, revisions, audit, the newsletter and fediverse
// hooks) as the key's account, and the key's scope is checked before it.
import { DomainError } from "#domain/errors.ts";
import { isPublicAt, type Post } from "#domain/post.ts";
import { absoluteUrl } from "#domain/site-urls.ts";
import { listCategories, type PostService } from "../posts/index.ts";
import type { MediaService } from "../media/index.ts";
import type { AppCaller, AppsService } from "./service.ts";
import { type GhostPostInput, textOf, toGhostPost, toPostInput } from "./ghost-posts.ts";
import * as ghostRows from "./repositories/ghost.ts";
import type { Kysely } from "kysely";
import type { Database } from "../kernel/db/schema.ts";

export interface GhostAdminDeps {
  db: Kysely<Database>;
  now: () => Date;
  apps: AppsService;
  posts: PostService;
  media: MediaService;
  siteUrl: string;
  readSite: () => Promise<{ title: string; description: string; logo: string }>;
}

/** What a drafts-only key is refused: anything readers would see change. */
function requireDraftsAllowed(caller: AppCaller, post: Pick<Post, "published" | "publishAt">, at: Date): void {
  if (caller.scope === "publish") return;
  if (post.published || isPublicAt(post, at)) {
    throw new DomainError(
      "FORBIDDEN",
      `${caller.keyName} may write drafts only: its key cannot publish or change published posts`,
    );
  }
}

export function createGhostAdmin({ db, now, apps, posts, media, siteUrl, readSite }: GhostAdminDeps) {
  const categoryNames = async () => (await listCategories(db)).map((category) => category.name);
  const show = (post: Post) => toGhostPost(post, { siteUrl, at: now(), admin: true });
  const renderText = (body: Pick<Post, "format" | "content">) =>
    textOf(posts.renderPreview(body.format, body.content).html);

  async function requirePost(idOrSlug: { id?: string; slug?: string }): Promise<Post> {
    const id = idOrSlug.id ?? (idOrSlug.slug ? await ghostRows.findPostIdBySlug(db, idOrSlug.slug) : undefined);
    return posts.getPostForEditing(id ?? "");
  }

  return {
    async site() {
      const site = await readSite();
      return {
        title: site.title,
        description: site.description,
        logo: site.logo ? absoluteUrl(siteUrl, site.logo) : null,
        icon: null,
        accent_color: null,
        locale: "en",
        url: absoluteUrl(siteUrl, "/"),
        version: "5.0",
      };
    },

    /** The writer's list, drafts included, newest first, a page at a time. */
    async browsePosts(page: number) {
      const found = await posts.listAllPosts("", page);
      const pages = Math.max(1, Math.ceil(found.total / found.pageSize));
      return {
        posts: found.items.map((post) => toGhostPost(post, { siteUrl, at: now(), admin: true })),
        meta: {
          pagination: {
            page,
            limit: found.pageSize,
            pages,
            total: found.total,
            next: page < pages ? page + 1 : null,
            prev: page > 1 ? page - 1 : null,
          },
        },
      };
    },

    async readPost(idOrSlug: { id?: string; slug?: string }) {
      return show(await requirePost(idOrSlug));
    },

    async addPost(caller: AppCaller, sent: GhostPostInput, sourceHtml: boolean) {
      const input = toPostInput(sent, {
        sourceHtml,
        author: caller.writer.label.split(" via ")[0]!,
        renderText,
        categories: await categoryNames(),
      });
      requireDraftsAllowed(caller, { published: input.published, publishAt: null }, now());
      const created = await posts.createPost(input, caller.writer);
      await apps.recordWrite(caller, `created “${created.title}”`);
      return show(created);
    },

    /**
     * An edit names the `updated_at` the app last read: a post changed since (in the editor, by
     * another app) is refused with a conflict, as Ghost does, rather than overwritten.
     */
    async editPost(caller: AppCaller, id: string, sent: GhostPostInput, sourceHtml: boolean) {
      const before = await posts.getPostForEditing(id);
      if (!sent.updated_at) throw new DomainError("UPDATE_COLLISION", "updated_at is required to edit a post");
      if (Date.parse(sent.updated_at) !== Date.parse(before.updatedAt)) {
        throw new DomainError("UPDATE_COLLISION", "Saving failed! Someone else is editing this post.");
      }
      const input = toPostInput(sent, {
        before,
        sourceHtml,
        author: before.author,
        renderText,
        categories: await categoryNames(),
      });
      requireDraftsAllowed(caller, before, now());
      requireDraftsAllowed(caller, { published: input.published, publishAt: null }, now());
      const updated = await posts.updatePost(id, input, caller.writer);
      await apps.recordWrite(caller, `edited “${updated.title}”`);
      return show(updated);
    },

    async deletePost(caller: AppCaller, id: string) {
      const before = await posts.getPostForEditing(id);
      requireDraftsAllowed(caller, before, now());
      await posts.deletePost(id, caller.writer);
      await apps.recordWrite(caller, `deleted “${before.title}”`);
    },

    /** An image for a post, through the media library's one upload (checked, re-encoded, stored). */
    async uploadImage(caller: AppCaller, file: { bytes: Buffer; name: string; type: string }) {
      const uploaded = await media.upload({
        bytes: file.bytes,
        name: file.name,
        declaredType: file.type,
        uploadedBy: caller.writer.id!,
      });
      await apps.recordWrite(caller, `uploaded the image ${file.name.slice(0, 100)}`);
      return absoluteUrl(siteUrl, uploaded.url);
    },
  };
}

export type GhostAdmin = ReturnType<typeof createGhostAdmin>;
