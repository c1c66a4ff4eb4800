// What Micropub does here, over the blog's own services: every write is the posts service's
// createPost, updatePost or deletePost as the token's account (rendering, sanitising, slugs,
// revisions, the newsletter, fediverse and webmention hooks), checked against the token's
// scopes first and written to the audit log after.
import type { Kysely } from "kysely";
import { MICROPUB_MEDIA_PATH, type MicropubScope } from "#domain/micropub.ts";
import { isPublicAt, type Post } from "#domain/post.ts";
import { absoluteUrl, postAddressIn, postPath } from "#domain/site-urls.ts";
import type { AuditLog } from "../accounts/index.ts";
import type { Database } from "../kernel/db/schema.ts";
import { htmlToText } from "../kernel/html.ts";
import type { MediaService } from "../media/index.ts";
import { findPostIdByAddress, listCategories, type PostService, type Writer } from "../posts/index.ts";
import {
  applyUpdate,
  type Mf2Properties,
  type MicropubAction,
  MicropubRequestError,
  propertiesOf,
  toPostInput,
} from "./properties.ts";

/** Who is asking: the account a token acts as, the app's name, and what the token allows. */
export interface MicropubCaller {
  writer: Writer;
  appName: string;
  scopes: ReadonlySet<MicropubScope>;
  /** An app key made "Drafts only", or a token granted `draft` without `create`: never changes what readers see. */
  draftsOnly: boolean;
}

/** Refused for the token's scope: Micropub's `insufficient_scope` (403), naming the scope wanted. */
export class InsufficientScopeError extends Error {
  override name = "InsufficientScopeError";
  readonly scope: MicropubScope;
  constructor(scope: MicropubScope, message: string) {
    super(message);
    this.scope = scope;
  }
}

export interface MicropubServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  audit: AuditLog;
  posts: PostService;
  media: MediaService;
  siteUrl: string;
}

export function createMicropubService({ db, now, audit, posts, media, siteUrl }: MicropubServiceDeps) {
  const urlOf = (post: Pick<Post, "slug">) => absoluteUrl(siteUrl, postPath(post.slug));
  const textOf = (body: Pick<Post, "format" | "content">) =>
    htmlToText(posts.renderPreview(body.format, body.content).html);
  const record = (caller: MicropubCaller, what: string) => audit.record(caller.writer, "app-write", what);
  const isPublic = (post: Pick<Post, "published" | "publishAt">) => post.published || isPublicAt(post, now());

  function requireScope(caller: MicropubCaller, scope: MicropubScope, doing: string): void {
    if (!caller.scopes.has(scope)) {
      throw new InsufficientScopeError(
        scope,
        `${caller.appName} was not given the ${scope} scope, so it cannot ${doing}`,
      );
    }
  }

  /** A drafts-only caller is refused anything readers would see change. */
  function requireDraftsAllowed(caller: MicropubCaller, post: Pick<Post, "published" | "publishAt">): void {
    if (caller.draftsOnly && isPublic(post)) {
      throw new InsufficientScopeError(
        "create",
        `${caller.appName} may write drafts only: send post-status draft, or give it a key that may publish`,
      );
    }
  }

  /** The post a `url` names: an address on this blog, /blog/{slug}, now or before a rename. */
  async function requirePost(url: string): Promise<Post> {
    const address = URL.canParse(url, siteUrl) ? new URL(url, siteUrl) : undefined;
    const postAddress = address?.origin === new URL(siteUrl).origin ? postAddressIn(address.pathname) : undefined;
    if (postAddress === undefined) throw new MicropubRequestError(`${url} is not a post on this blog`);
    const id = await findPostIdByAddress(db, postAddress);
    if (!id) throw new MicropubRequestError(`No post is at ${url}`);
    return posts.getPostForEditing(id);
  }

  async function inputFor(caller: MicropubCaller, properties: Mf2Properties, before?: Post) {
    const categories = (await listCategories(db)).map((category) => category.name);
    return toPostInput(properties, { before, author: caller.writer.label.split(" via ")[0]!, categories, textOf });
  }

  async function create(caller: MicropubCaller, type: string, properties: Mf2Properties): Promise<string> {
    if (type !== "entry") throw new MicropubRequestError(`Only h-entry posts are made here, not h-${type}`);
    const input = await inputFor(caller, properties);
    if (input.published) {
      if (caller.draftsOnly || !caller.scopes.has("create")) {
        throw new InsufficientScopeError(
          "create",
          `${caller.appName} may write drafts only: send post-status draft, or give it a key that may publish`,
        );
      }
    } else if (!caller.scopes.has("create") && !caller.scopes.has("draft")) {
      requireScope(caller, "create", "create posts");
    }
    const created = await posts.createPost(input, caller.writer);
    await record(caller, `created “${created.title}” with Micropub`);
    return urlOf(created);
  }

  async function update(caller: MicropubCaller, request: Extract<MicropubAction, { action: "update" }>) {
    requireScope(caller, "update", "edit posts");
    const before = await requirePost(request.url);
    requireDraftsAllowed(caller, before);
    const input = await inputFor(caller, applyUpdate(propertiesOf(before, urlOf(before)), request), before);
    requireDraftsAllowed(caller, { published: input.published, publishAt: null });
    const updated = await posts.updatePost(before.id, input, caller.writer);
    await record(caller, `edited “${updated.title}” with Micropub`);
    return { url: urlOf(updated), moved: updated.slug !== before.slug };
  }

  /**
   * Deleting a post readers can see takes it off the blog and keeps it among the drafts, so an
   * app's delete can be undone (`undelete` publishes it again); deleting a draft deletes it for
   * good (docs/decisions/0033-micropub-and-indieauth.md).
   */
  async function remove(caller: MicropubCaller, url: string): Promise<void> {
    requireScope(caller, "delete", "delete posts");
    const before = await requirePost(url);
    requireDraftsAllowed(caller, before);
    if (!before.published) {
      await posts.deletePost(before.id, caller.writer);
      await record(caller, `deleted “${before.title}” with Micropub`);
      return;
    }
    const change = { replace: { "post-status": ["draft"] }, add: {}, remove: {}, removeNames: [] };
    const input = await inputFor(caller, applyUpdate(propertiesOf(before, url), change), before);
    await posts.updatePost(before.id, input, caller.writer);
    await record(caller, `took “${before.title}” off the blog with Micropub`);
  }

  async function undelete(caller: MicropubCaller, url: string): Promise<void> {
    requireScope(caller, "delete", "bring posts back");
    const before = await requirePost(url);
    if (before.published) return;
    requireDraftsAllowed(caller, { published: true, publishAt: null });
    const change = { replace: { "post-status": ["published"] }, add: {}, remove: {}, removeNames: [] };
    const input = await inputFor(caller, applyUpdate(propertiesOf(before, url), change), before);
    await posts.updatePost(before.id, input, caller.writer);
    await record(caller, `put “${before.title}” back on the blog with Micropub`);
  }

  return {
    /** Create, update, delete or undelete; a created post's address comes back for the Location header. */
    async act(
      caller: MicropubCaller,
      request: MicropubAction,
    ): Promise<{ status: 201; url: string } | { status: 200 | 204; url?: string }> {
      switch (request.action) {
        case "create":
          return { status: 201, url: await create(caller, request.type, request.properties) };
        case "update": {
          const { url, moved } = await update(caller, request);
          return moved ? { status: 201, url } : { status: 204 };
        }
        case "delete":
          await remove(caller, request.url);
          return { status: 204 };
        case "undelete":
          await undelete(caller, request.url);
          return { status: 204 };
      }
    },

    /** `q=config`: where images go, what may be asked, and where posts can be syndicated (nowhere from here). */
    async config() {
      return {
        "media-endpoint": absoluteUrl(siteUrl, MICROPUB_MEDIA_PATH),
        "syndicate-to": [],
        q: ["config", "source", "syndicate-to", "category"],
        "post-types": [
          { type: "note", name: "Note" },
          { type: "article", name: "Article" },
          { type: "photo", name: "Photo" },
        ],
        categories: await this.categories(),
      };
    },

    /** `q=category`: the writer's categories, which file a post (the other names become tags). */
    async categories(): Promise<string[]> {
      return (await listCategories(db)).map((category) => category.name);
    },

    /** `q=source`: the post's properties, all of them or only those asked for. */
    async source(caller: MicropubCaller, url: string, only: string[]) {
      if (!caller.scopes.has("update") && !caller.scopes.has("create") && !caller.scopes.has("draft")) {
        requireScope(caller, "update", "read posts' sources");
      }
      const post = await requirePost(url);
      const properties = propertiesOf(post, urlOf(post));
      if (only.length === 0) return { type: ["h-entry"], properties };
      return {
        properties: Object.fromEntries(
          only.filter((name) => Object.hasOwn(properties, name)).map((name) => [name, properties[name]]),
        ),
      };
    },

    /** The media endpoint: an image through the media library's one upload; its address for the Location header. */
    async upload(caller: MicropubCaller, file: { bytes: Buffer; name: string; type: string }): Promise<string> {
      requireScope(caller, "media", "upload images");
      const uploaded = await media.upload({
        bytes: file.bytes,
        name: file.name,
        declaredType: file.type,
        uploadedBy: caller.writer.id!,
      });
      await record(caller, `uploaded the image ${file.name.slice(0, 100)} with Micropub`);
      return absoluteUrl(siteUrl, uploaded.url);
    },
  };
}

export type MicropubService = ReturnType<typeof createMicropubService>;

/** An app key as a Micropub caller: every scope, narrowed to drafts for a "Drafts only" key. */
export function callerFromAppKey(key: {
  keyName: string;
  scope: "drafts" | "publish";
  writer: Writer;
}): MicropubCaller {
  return {
    writer: key.writer,
    appName: key.keyName,
    scopes: new Set<MicropubScope>(["create", "update", "delete", "media", "draft"]),
    draftsOnly: key.scope === "drafts",
  };
}
