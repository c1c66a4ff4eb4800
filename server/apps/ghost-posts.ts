// A post in Ghost's words and in ours: what an Admin API client sends becomes the editor's own
// input (PostInput), so the one write path renders, sanitises, slugs and audits it; what either
// API answers is a stored post told as Ghost tells it.
import { cleanJsonStrings } from "#domain/forms.ts";
import { z } from "#domain/zod.ts";
import { type Post, type PostInput, postSchema, type PostStatus, postStatus, POST_LIMITS } from "#domain/post.ts";
import { absoluteUrl, postPath } from "#domain/site-urls.ts";
import { htmlToText } from "../kernel/html.ts";
import { toSlug } from "../kernel/slugs.ts";
import { categoryAndTagsFromGhost, ghostTagsOf, type GhostTagName } from "./ghost-tags.ts";

const nullableText = z.string().nullable().optional();

/** One post of an Admin API body (`{ "posts": [ … ] }`): what Ghost's clients send; the rest is ignored. */
const ghostPostSchema = z.looseObject({
  title: nullableText,
  slug: nullableText,
  html: nullableText,
  mobiledoc: nullableText,
  lexical: nullableText,
  status: z
    .enum(["draft", "published", "scheduled"], { error: "status must be draft, published or scheduled" })
    .optional(),
  published_at: nullableText,
  custom_excerpt: nullableText,
  feature_image: nullableText,
  canonical_url: nullableText,
  updated_at: nullableText,
  tags: z.array(z.union([z.string(), z.looseObject({ name: nullableText, slug: nullableText })])).optional(),
});

export const ghostPostsBodySchema = z.object(
  {
    posts: z
      .array(ghostPostSchema, { error: "Send { posts: [ … ] }" })
      .min(1, "Send one post")
      .max(1, "Send one post at a time"),
  },
  { error: "Send { posts: [ … ] }" },
);

export type GhostPostInput = z.infer<typeof ghostPostSchema>;

/** What the Admin API refuses in a post, as Ghost's ValidationError words it. */
export class GhostValidationError extends Error {
  override name = "GhostValidationError";
  readonly property: string | undefined;
  constructor(message: string, property?: string) {
    super(message);
    this.property = property;
  }
}

/** A cover is a web address or one of the blog's images, or none (as imports leave it). */
const apiPostSchema = postSchema.extend({
  coverImage: z.union([z.literal(""), postSchema.shape.coverImage]),
});

function parseJson(text: string, field: string): unknown {
  try {
    // Cleaned as the body around it was: a NUL escaped inside the inner JSON appears only now.
    return JSON.parse(text, cleanJsonStrings);
  } catch {
    throw new GhostValidationError(`${field} is not valid JSON`, field);
  }
}

type Markers = unknown[][];

/** The text of a mobiledoc's sections: Markdown and HTML cards as they are, paragraphs as text. */
function fromMobiledoc(source: string): string {
  const doc = parseJson(source, "mobiledoc") as { cards?: [string, Record<string, unknown>][]; sections?: unknown[][] };
  const cards = doc.cards ?? [];
  const parts = (doc.sections ?? []).map((section) => {
    if (section[0] === 10) {
      const [name, payload] = cards[section[1] as number] ?? [];
      if (name === "markdown" || name === "card-markdown") return String(payload?.markdown ?? "");
      if (name === "html") return String(payload?.html ?? "");
      return "";
    }
    if (section[0] === 1) {
      const text = ((section[2] as Markers | undefined) ?? []).map((marker) => String(marker[3] ?? "")).join("");
      const heading = /^h([1-6])$/.exec(String(section[1]));
      return heading ? `${"#".repeat(Number(heading[1]))} ${text}` : text;
    }
    return "";
  });
  return parts.filter((part) => part.trim() !== "").join("\n\n");
}

interface LexicalNode {
  type?: string;
  text?: string;
  tag?: string;
  markdown?: string;
  html?: string;
  children?: LexicalNode[];
}

const lexicalText = (node: LexicalNode): string =>
  node.text ?? (node.children ?? []).map(lexicalText).join(node.type === "list" ? "\n" : "");

/** The text of a Lexical document's top-level nodes: Markdown and HTML cards as they are, the rest as text. */
function fromLexical(source: string): string {
  const doc = parseJson(source, "lexical") as { root?: LexicalNode };
  const parts = (doc.root?.children ?? []).map((node) => {
    if (node.type === "markdown") return node.markdown ?? "";
    if (node.type === "html") return node.html ?? "";
    const heading = /^h([1-6])$/.exec(node.tag ?? "");
    const text = lexicalText(node);
    return node.type === "heading" && heading ? `${"#".repeat(Number(heading[1]))} ${text}` : text;
  });
  return parts.filter((part) => part.trim() !== "").join("\n\n");
}

/**
 * The body an app sent: HTML when it asked with `?source=html` (as Ghost reads it), otherwise
 * Markdown from a Lexical or mobiledoc document. Undefined: the app sent no body.
 */
function bodyOf(post: GhostPostInput, sourceHtml: boolean): Pick<PostInput, "format" | "content"> | undefined {
  if (sourceHtml && post.html) return { format: "html", content: post.html };
  if (post.lexical) return { format: "markdown", content: fromLexical(post.lexical) };
  if (post.mobiledoc) return { format: "markdown", content: fromMobiledoc(post.mobiledoc) };
  return undefined;
}

const EXCERPT_FROM_BODY = 200;

/** An ISO time (Ghost's `published_at`) as the editor's publishing time, in UTC. */
function publishAtOf(iso: string | null | undefined): Pick<PostInput, "publishAt" | "publishAtOffset"> {
  if (!iso) return { publishAt: "", publishAtOffset: "" };
  const time = Date.parse(iso);
  if (Number.isNaN(time)) throw new GhostValidationError("published_at must be a date and time", "published_at");
  return { publishAt: new Date(time).toISOString().slice(0, 19), publishAtOffset: "0" };
}

/**
 * An Admin API post as the editor's input. An edit sends only what changes: the rest is `before`'s.
 * `renderText` gives a body's text, for an excerpt when the app sent none.
 */
export function toPostInput(
  post: GhostPostInput,
  options: {
    before?: Post;
    sourceHtml: boolean;
    author: string;
    renderText: (body: Pick<PostInput, "format" | "content">) => string;
    /** The writer's categories, in their order. */
    categories: readonly string[];
  },
): PostInput {
  const { before } = options;
  const body =
    bodyOf(post, options.sourceHtml) ?? (before ? { format: before.format, content: before.content } : undefined);
  if (!body || body.content.trim() === "") {
    throw new GhostValidationError(
      "A post needs a body: HTML with ?source=html, or Markdown in lexical or mobiledoc",
      "html",
    );
  }
  const status = post.status ?? (before ? ghostStatus(postStatus(before, new Date())) : "draft");
  const published = status !== "draft";
  if (status === "scheduled" && !(post.published_at ?? before?.publishAt)) {
    throw new GhostValidationError("A scheduled post needs published_at", "published_at");
  }
  const publishTime = post.published_at !== undefined ? post.published_at : before?.publishAt;
  const excerpt =
    post.custom_excerpt ??
    (before && bodyOf(post, options.sourceHtml) === undefined
      ? before.excerpt
      : options.renderText(body).replace(/\s+/g, " ").trim().slice(0, EXCERPT_FROM_BODY));
  const input = {
    title: post.title ?? before?.title ?? "(Untitled)",
    slug: post.slug ?? before?.slug ?? "",
    ...body,
    excerpt: excerpt.trim() || (post.title ?? before?.title ?? "(Untitled)"),
    author: before?.author ?? options.author,
    coverImage: post.feature_image !== undefined ? (post.feature_image ?? "") : (before?.coverImage ?? ""),
    ...categoryAndTagsFromGhost(post.tags, options.categories, before),
    canonicalUrl: post.canonical_url !== undefined ? (post.canonical_url ?? "") : (before?.canonicalUrl ?? ""),
    published,
    commentsClosed: before?.commentsClosed ?? false,
    emailSubscribers: false,
    ...(published ? publishAtOf(publishTime) : { publishAt: "", publishAtOffset: "" }),
  };
  const parsed = apiPostSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GhostValidationError(issue.message, GHOST_FIELD_NAMES[String(issue.path[0])] ?? String(issue.path[0]));
  }
  return parsed.data;
}

/** Our field names as Ghost's, for a refusal's `property`. */
const GHOST_FIELD_NAMES: Record<string, string> = {
  content: "html",
  excerpt: "custom_excerpt",
  coverImage: "feature_image",
  canonicalUrl: "canonical_url",
  publishAt: "published_at",
};

export function ghostStatus(status: PostStatus): "draft" | "scheduled" | "published" {
  return status === "Draft" ? "draft" : status === "Scheduled" ? "scheduled" : "published";
}

/** An author as Ghost tells one: this blog knows its authors by the name on their posts. */
export function ghostAuthor(name: string, siteUrl: string) {
  const slug = toSlug(name) || "author";
  return {
    id: slug,
    name,
    slug,
    profile_image: null,
    cover_image: null,
    bio: null,
    website: null,
    location: null,
    facebook: null,
    twitter: null,
    meta_title: null,
    meta_description: null,
    url: absoluteUrl(siteUrl, "/blog"),
  };
}

export function ghostTag(tag: GhostTagName, siteUrl: string) {
  return {
    id: tag.slug,
    name: tag.name,
    slug: tag.slug,
    description: null,
    feature_image: null,
    visibility: "public",
    meta_title: null,
    meta_description: null,
    url: absoluteUrl(siteUrl, tag.path),
  };
}

/** A post as Ghost's APIs answer it; `content` is there when the post was read with its body. */
export function toGhostPost(
  post: Omit<Post, "content" | "contentHtml"> & Partial<Pick<Post, "content" | "contentHtml">>,
  { siteUrl, at, admin }: { siteUrl: string; at: Date; admin: boolean },
) {
  const tags = ghostTagsOf(post).map((tag) => ghostTag(tag, siteUrl));
  const author = ghostAuthor(post.author, siteUrl);
  const status = ghostStatus(postStatus(post, at));
  const markdownSource =
    admin && post.content !== undefined && post.format === "markdown"
      ? JSON.stringify({
          root: {
            children: [{ type: "markdown", version: 1, markdown: post.content }],
            direction: null,
            format: "",
            indent: 0,
            type: "root",
            version: 1,
          },
        })
      : null;
  return {
    id: post.id,
    uuid: post.id,
    title: post.title,
    slug: post.slug,
    ...(post.contentHtml !== undefined ? { html: post.contentHtml } : {}),
    ...(admin ? { lexical: markdownSource, mobiledoc: null } : {}),
    comment_id: post.id,
    feature_image: post.coverImage || null,
    featured: false,
    status,
    visibility: "public",
    created_at: post.createdAt,
    updated_at: post.updatedAt,
    published_at: post.published ? (post.publishAt ?? post.createdAt) : null,
    custom_excerpt: post.excerpt,
    excerpt: post.excerpt,
    canonical_url: post.canonicalUrl || null,
    url: absoluteUrl(siteUrl, postPath(post.slug)),
    reading_time: post.readingMinutes,
    tags,
    primary_tag: tags[0] ?? null,
    authors: [author],
    primary_author: author,
    meta_title: null,
    meta_description: null,
    og_image: null,
    twitter_image: null,
    custom_template: null,
    codeinjection_head: null,
    codeinjection_foot: null,
  };
}

/** The body's text, for an excerpt: the HTML a save would make of it, as text. */
export function textOf(renderedHtml: string): string {
  return htmlToText(renderedHtml).slice(0, POST_LIMITS.excerpt * 4);
}
