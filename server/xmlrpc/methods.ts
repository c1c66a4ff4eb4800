// The MetaWeblog, Blogger and WordPress calls MarsEdit-style apps make, over the app keys (any
// user name, the key's token as the password). A post is sent as the Ghost Admin API's input, so
// it takes the same road: the Admin API's scope check, then the posts service (the one write
// path), and images go through the media library's one upload.
import { XMLRPC_PATH } from "#domain/apps.ts";
import { categoryPath } from "#domain/categories.ts";
import { DomainError } from "#domain/errors.ts";
import { type Post, postStatus } from "#domain/post.ts";
import { absoluteUrl, postPath } from "#domain/site-urls.ts";
import type { Kysely } from "kysely";
import type { AppCaller, AppsService, GhostAdmin } from "../apps/index.ts";
import type { Database } from "../kernel/db/schema.ts";
import { listCategories, type PostService } from "../posts/index.ts";
import { FAULT, XmlRpcFault, type XmlRpcValue } from "./codec.ts";

/** The one blog this server is, in the Blogger API's words. */
export const BLOG_ID = "1";
/** getRecentPosts answers at most this many: one page of the writer's own list. */
const RECENT_POSTS_MAX = 50;

export interface XmlRpcDeps {
  db: Kysely<Database>;
  now: () => Date;
  keys: AppsService;
  admin: GhostAdmin;
  posts: PostService;
  siteUrl: string;
  readSite: () => Promise<{ title: string }>;
}

type Struct = { [name: string]: XmlRpcValue };

const invalid = (message: string) => new XmlRpcFault(FAULT.invalidParams, message);

function text(params: XmlRpcValue[], index: number, name: string): string {
  const value = params[index];
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") throw invalid(`Parameter ${index + 1} (${name}) must be a string`);
  return value;
}

function struct(params: XmlRpcValue[], index: number, name: string): Struct {
  const value = params[index];
  if (!value || typeof value !== "object" || Array.isArray(value) || value instanceof Date || Buffer.isBuffer(value)) {
    throw invalid(`Parameter ${index + 1} (${name}) must be a struct`);
  }
  return value;
}

const optionalText = (value: XmlRpcValue | undefined): string | undefined =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;

function flag(params: XmlRpcValue[], index: number): boolean {
  const value = params[index];
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  throw invalid(`Parameter ${index + 1} (publish) must be true or false`);
}

/** `post_status` (WordPress's word) wins over the publish flag, as in WordPress. */
function publishes(content: Struct, publish: boolean): boolean {
  const status = optionalText(content.post_status);
  if (status === "draft" || status === "pending") return false;
  if (status === "publish" || status === "future") return true;
  return publish;
}

/** MetaWeblog's post struct as the Ghost Admin API's input: HTML, categories as tags, the publishing time. */
function ghostInputOf(content: Struct, publish: boolean, at: Date) {
  const description = optionalText(content.description);
  const more = optionalText(content.mt_text_more);
  const html = description === undefined ? undefined : more ? `${description}\n<!--more-->\n${more}` : description;
  const categories = Array.isArray(content.categories) ? content.categories.flatMap((c) => optionalText(c) ?? []) : [];
  const keywords = (optionalText(content.mt_keywords) ?? "").split(",").map((keyword) => keyword.trim());
  const tags = [...categories, ...keywords].filter(Boolean);
  const sentDate = content.date_created_gmt ?? content.dateCreated;
  const date = sentDate instanceof Date ? sentDate : undefined;
  const status = publishes(content, publish) ? (date && date > at ? "scheduled" : "published") : "draft";
  return {
    ...(optionalText(content.title) !== undefined ? { title: optionalText(content.title) } : {}),
    ...(html !== undefined ? { html } : {}),
    ...(optionalText(content.mt_excerpt) ? { custom_excerpt: optionalText(content.mt_excerpt) } : {}),
    ...(optionalText(content.wp_slug) ? { slug: optionalText(content.wp_slug) } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(date && status !== "draft" ? { published_at: date.toISOString() } : {}),
    status,
  } as const;
}

export function createXmlRpcMethods({ db, now, keys, admin, posts, siteUrl, readSite }: XmlRpcDeps) {
  const link = (post: Pick<Post, "slug">) => absoluteUrl(siteUrl, postPath(post.slug));

  /** A post as MetaWeblog's getPost answers it; the body is the HTML readers get. */
  function postStruct(post: Post): Struct {
    const status = postStatus(post, now());
    const created = new Date(post.publishAt ?? post.createdAt);
    return {
      postid: post.id,
      title: post.title,
      description: post.format === "html" ? post.content : post.contentHtml,
      link: link(post),
      permaLink: link(post),
      dateCreated: created,
      date_created_gmt: created,
      categories: [post.category],
      mt_keywords: post.tags.join(", "),
      mt_excerpt: post.excerpt,
      mt_text_more: "",
      wp_slug: post.slug,
      post_status: status === "Draft" ? "draft" : status === "Scheduled" ? "future" : "publish",
      mt_allow_comments: post.commentsClosed ? 0 : 1,
      userid: post.author,
    };
  }

  async function usersBlogs(caller: AppCaller): Promise<XmlRpcValue> {
    const site = await readSite();
    return [
      {
        isAdmin: caller.scope === "publish",
        url: absoluteUrl(siteUrl, "/"),
        blogid: BLOG_ID,
        blogName: site.title,
        xmlrpc: absoluteUrl(siteUrl, XMLRPC_PATH),
      },
    ];
  }

  async function categories(): Promise<{ name: string; description: string }[]> {
    return (await listCategories(db)).map((category) => ({
      name: category.name,
      description: category.description ?? "",
    }));
  }

  async function save(caller: AppCaller, postId: string | undefined, content: Struct, publish: boolean) {
    const sent = ghostInputOf(content, publish, now());
    if (!postId) return (await admin.addPost(caller, sent, true)).id;
    // MetaWeblog sends no version to compare: the edit applies to the post as it is now.
    const before = await posts.getPostForEditing(postId);
    await admin.editPost(caller, postId, { ...sent, updated_at: before.updatedAt }, true);
    return postId;
  }

  /** Each call: where its password is among the parameters, and what it does for the caller. */
  const METHODS: Record<
    string,
    { password: number; run: (caller: AppCaller, p: XmlRpcValue[]) => Promise<XmlRpcValue> }
  > = {
    "blogger.getUsersBlogs": { password: 2, run: usersBlogs },
    "wp.getUsersBlogs": { password: 1, run: usersBlogs },
    "metaWeblog.getUsersBlogs": { password: 2, run: usersBlogs },
    "metaWeblog.newPost": {
      password: 2,
      run: async (caller, p) => save(caller, undefined, struct(p, 3, "content"), flag(p, 4)),
    },
    "metaWeblog.editPost": {
      password: 2,
      run: async (caller, p) => {
        await save(caller, text(p, 0, "postid"), struct(p, 3, "content"), flag(p, 4));
        return true;
      },
    },
    "metaWeblog.getPost": {
      password: 2,
      run: async (_caller, p) => postStruct(await posts.getPostForEditing(text(p, 0, "postid"))),
    },
    "metaWeblog.getRecentPosts": {
      password: 2,
      run: async (_caller, p) => {
        const wanted = typeof p[3] === "number" ? Math.min(Math.max(p[3], 0), RECENT_POSTS_MAX) : 10;
        const listed = (await posts.listAllPosts("", 1)).items.slice(0, wanted);
        const full = await Promise.all(listed.map((post) => posts.getPostForEditing(post.id)));
        return full.map(postStruct);
      },
    },
    "metaWeblog.newMediaObject": {
      password: 2,
      run: async (caller, p) => {
        const file = struct(p, 3, "file");
        if (!Buffer.isBuffer(file.bits)) throw invalid("The file's bits must be base64");
        const name = optionalText(file.name) ?? "upload";
        const url = await admin.uploadImage(caller, {
          bytes: file.bits,
          name: name.split("/").pop() || "upload",
          type: optionalText(file.type) ?? "",
        });
        return { id: url, file: name, url, type: optionalText(file.type) ?? "" };
      },
    },
    "metaWeblog.getCategories": {
      password: 2,
      run: async () =>
        (await categories()).map((category) => ({
          categoryId: category.name,
          parentId: "0",
          categoryName: category.name,
          title: category.name,
          description: category.description || category.name,
          categoryDescription: category.description,
          htmlUrl: absoluteUrl(siteUrl, categoryPath(category.name)),
          rssUrl: absoluteUrl(siteUrl, `${categoryPath(category.name)}/rss.xml`),
        })),
    },
    "mt.getCategoryList": {
      password: 2,
      run: async () =>
        (await categories()).map((category) => ({ categoryId: category.name, categoryName: category.name })),
    },
    "mt.getPostCategories": {
      password: 2,
      run: async (_caller, p) => {
        const post = await posts.getPostForEditing(text(p, 0, "postid"));
        return [{ categoryId: post.category, categoryName: post.category, isPrimary: true }];
      },
    },
    "blogger.deletePost": {
      password: 3,
      run: async (caller, p) => {
        await admin.deletePost(caller, text(p, 1, "postid"));
        return true;
      },
    },
  };

  const UNAUTHENTICATED: Record<string, () => XmlRpcValue> = {
    "mt.supportedMethods": () => Object.keys(METHODS),
    "system.listMethods": () => [...Object.keys(METHODS), ...Object.keys(UNAUTHENTICATED)],
  };

  return {
    /** Runs one call as the key whose token is its password; a refusal is a DomainError or an XmlRpcFault. */
    async call(methodName: string, params: XmlRpcValue[], address: string): Promise<XmlRpcValue> {
      // Own names only: a caller's "constructor" or "__proto__" is no method, not Object's.
      const open = Object.hasOwn(UNAUTHENTICATED, methodName) ? UNAUTHENTICATED[methodName] : undefined;
      if (open) return open();
      const method = Object.hasOwn(METHODS, methodName) ? METHODS[methodName] : undefined;
      if (!method) throw new XmlRpcFault(FAULT.methodNotFound, `${methodName.slice(0, 80)} is not supported here`);
      const password = params[method.password];
      const caller = await keys.authenticateToken(typeof password === "string" ? password : undefined, address);
      if (!caller.writer.id) throw new DomainError("APP_KEY_REFUSED", "Unknown or revoked app token");
      return method.run(caller, params);
    },
  };
}

export type XmlRpcMethods = ReturnType<typeof createXmlRpcMethods>;
