// Micropub's microformats2 properties (https://www.w3.org/TR/micropub/) and a post here, both
// ways. A request is read into one shape, `{ name: [values] }`, whether it came as a form or as
// JSON; a post is told as the same shape for `q=source`, and an update edits that shape and
// turns it back into the editor's input, so every change takes the posts service's one path.
import { type Post, type PostInput, postDraftSchema, postSchema, type PostSaveInput } from "#domain/post.ts";
import { escapeHtml } from "#domain/escape.ts";
import { z } from "#domain/zod.ts";

/** One property's values: text, or an object (`{ html }`, `{ value, alt }`, a nested h-* item). */
export type Mf2Value = string | Record<string, unknown>;
export type Mf2Properties = Record<string, Mf2Value[]>;

/** A request Micropub refuses as `invalid_request`, in words for the writer. */
export class MicropubRequestError extends Error {
  override name = "MicropubRequestError";
}

/** What a form or a JSON body asks for, once read. */
export type MicropubAction =
  | { action: "create"; type: string; properties: Mf2Properties }
  | { action: "delete" | "undelete"; url: string }
  | {
      action: "update";
      url: string;
      replace: Mf2Properties;
      add: Mf2Properties;
      remove: Mf2Properties;
      removeNames: string[];
    };

/**
 * A map of properties keyed by the caller's names: without a prototype, so "constructor" or
 * "__proto__" is a property like any other, not something every object already has.
 */
function emptyProperties(): Mf2Properties {
  return Object.create(null) as Mf2Properties;
}

/** Form fields that are the request's own words, never a post's property. */
const RESERVED = new Set(["h", "action", "url", "access_token"]);

function asValues(value: unknown, name: string): Mf2Value[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (typeof item === "string") return item;
    if (typeof item === "number" || typeof item === "boolean") return String(item);
    if (item !== null && typeof item === "object" && !Array.isArray(item)) return item as Record<string, unknown>;
    throw new MicropubRequestError(`The values of ${name} must be text or objects`);
  });
}

/**
 * A form-encoded (or multipart) request's fields: `category[]=a&category[]=b` and repeated
 * `category=a&category=b` alike make a list, `mp-*` commands stay properties named so.
 */
export function readForm(fields: Record<string, unknown>): MicropubAction {
  const action = typeof fields.action === "string" ? fields.action : "create";
  if (action === "delete" || action === "undelete") return { action, url: requireUrl(fields.url) };
  if (action !== "create") {
    throw new MicropubRequestError("Updates are sent as JSON; a form may create, delete or undelete");
  }
  const properties = emptyProperties();
  for (const [key, value] of Object.entries(fields)) {
    const name = key.replace(/\[\]$/, "");
    if (RESERVED.has(name) || value === undefined) continue;
    properties[name] = [...(properties[name] ?? []), ...asValues(value, name)];
  }
  return { action: "create", type: typeof fields.h === "string" ? fields.h : "entry", properties };
}

function requireUrl(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw new MicropubRequestError("Name the post by its url");
  return value.trim();
}

const propertiesSchema = z.record(z.string(), z.array(z.unknown(), { error: "Every property must be an array" }), {
  error: "properties must be an object of arrays",
});

/** A JSON request: a new item (`{ type, properties }`) or an action on one (`{ action, url, … }`). */
export function readJson(body: unknown): MicropubAction {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new MicropubRequestError("Send a JSON object");
  }
  const request = body as Record<string, unknown>;
  if (request.action === undefined) {
    const types = Array.isArray(request.type) ? request.type : [];
    const type = typeof types[0] === "string" ? types[0].replace(/^h-/, "") : "";
    if (type === "") throw new MicropubRequestError('A new post is { "type": ["h-entry"], "properties": { … } }');
    return { action: "create", type, properties: readProperties(request.properties, "properties") };
  }
  if (request.action === "delete" || request.action === "undelete") {
    return { action: request.action, url: requireUrl(request.url) };
  }
  if (request.action !== "update") throw new MicropubRequestError(`${String(request.action)} is not an action here`);
  const removal = request.delete;
  let remove = emptyProperties();
  let removeNames: string[] = [];
  if (Array.isArray(removal)) {
    if (!removal.every((name) => typeof name === "string"))
      throw new MicropubRequestError("delete lists property names");
    removeNames = removal;
  } else if (removal !== undefined) {
    remove = readProperties(removal, "delete");
  }
  return {
    action: "update",
    url: requireUrl(request.url),
    replace: request.replace === undefined ? {} : readProperties(request.replace, "replace"),
    add: request.add === undefined ? {} : readProperties(request.add, "add"),
    remove,
    removeNames,
  };
}

function readProperties(value: unknown, what: string): Mf2Properties {
  const parsed = propertiesSchema.safeParse(value);
  if (!parsed.success) {
    throw new MicropubRequestError(`${what} must be an object whose every value is an array`);
  }
  const properties = emptyProperties();
  for (const [name, values] of Object.entries(parsed.data)) properties[name] = asValues(values, name);
  return properties;
}

/** An update's three operations on the post's properties, in the spec's order: replace, add, delete. */
export function applyUpdate(
  current: Mf2Properties,
  update: Pick<Extract<MicropubAction, { action: "update" }>, "replace" | "add" | "remove" | "removeNames">,
): Mf2Properties {
  const next = Object.assign(emptyProperties(), current, update.replace);
  for (const [name, values] of Object.entries(update.add)) next[name] = [...(next[name] ?? []), ...values];
  for (const [name, values] of Object.entries(update.remove)) {
    const gone = new Set(values.map((value) => JSON.stringify(value)));
    next[name] = (next[name] ?? []).filter((value) => !gone.has(JSON.stringify(value)));
  }
  const removed = new Set(update.removeNames);
  return Object.assign(
    emptyProperties(),
    Object.fromEntries(Object.entries(next).filter(([name]) => !removed.has(name))),
  ) as Mf2Properties;
}

const text = (value: Mf2Value | undefined): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value?.value === "string"
      ? value.value
      : typeof value?.html === "string"
        ? value.html
        : undefined;

/** A photo as a web address and its alternative text: `url`, or `{ value, alt }`. */
function photoOf(value: Mf2Value): { url: string; alt: string } | undefined {
  const url = text(value)?.trim();
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  const alt = typeof value === "object" && typeof value.alt === "string" ? value.alt : "";
  return { url, alt };
}

/** The body: `content` as Markdown (what writing apps send as text) or `{ html }` as HTML, photos after it. */
function bodyOf(properties: Mf2Properties): Pick<PostInput, "format" | "content"> {
  const content = properties.content?.[0];
  const isHtml = typeof content === "object" && typeof content.html === "string";
  const photos = (properties.photo ?? []).map((value) => {
    const photo = photoOf(value);
    if (!photo) throw new MicropubRequestError("A photo must be a web address starting with http:// or https://");
    return photo;
  });
  const main = (text(content) ?? "").trim();
  const images = photos.map(({ url, alt }) =>
    isHtml
      ? `<p><img src="${escapeHtml(url)}" alt="${escapeHtml(alt)}"></p>`
      : `![${alt.replace(/[[\]]/g, "")}](<${url.replace(/[<>]/g, encodeURIComponent)}>)`,
  );
  return { format: isHtml ? "html" : "markdown", content: [main, ...images].filter(Boolean).join("\n\n") };
}

/** A note has no name: its title is its first words, so the posts list and the page can name it. */
const TITLE_FROM_TEXT = 60;
const EXCERPT_FROM_TEXT = 200;

export interface PostFromProperties {
  before?: Post;
  /** The account's name, the byline of a new post. */
  author: string;
  /** The writer's categories, in their order: the first category named becomes the post's. */
  categories: readonly string[];
  /** A body's text, for a title or an excerpt the app did not send. */
  textOf: (body: Pick<PostInput, "format" | "content">) => string;
}

/** A cover is optional for an app's post (notes have none), as Ghost's import leaves it. */
const micropubPostSchema = postSchema.extend({ coverImage: z.union([z.literal(""), postSchema.shape.coverImage]) });

/** The categories named in `category`: the first naming one of the writer's categories files the post, the rest are tags. */
function categoryAndTags(names: string[], categories: readonly string[], before?: Post) {
  const fold = (name: string) => name.trim().toLowerCase();
  const index = names.findIndex((name) => categories.some((category) => fold(category) === fold(name)));
  const fallback = before?.category || categories[0] || "";
  if (index === -1) return { category: fallback, tags: names };
  return {
    category: categories.find((category) => fold(category) === fold(names[index]!))!,
    tags: names.filter((_, at) => at !== index),
  };
}

/** The editor's input for these properties; `post-status: draft` keeps it a draft, `published` may schedule it. */
export function toPostInput(properties: Mf2Properties, options: PostFromProperties): PostSaveInput {
  const body = bodyOf(properties);
  const bodyText = options.textOf(body).replace(/\s+/g, " ").trim();
  const name = text(properties.name?.[0])?.trim();
  const title = name || (bodyText.length > TITLE_FROM_TEXT ? `${bodyText.slice(0, TITLE_FROM_TEXT - 1)}…` : bodyText);
  const status = text(properties["post-status"]?.[0]) ?? "published";
  if (status !== "draft" && status !== "published") {
    throw new MicropubRequestError("post-status must be draft or published");
  }
  const { before } = options;
  // The time `q=source` told is the post's own: sent back unchanged, it leaves the post's as it was.
  const told = before ? (before.publishAt ?? before.createdAt) : undefined;
  const sentTime = text(properties.published?.[0]);
  const published = sentTime === told ? (before?.publishAt ?? undefined) : sentTime;
  const publishTime = published === undefined ? undefined : Date.parse(published);
  if (publishTime !== undefined && Number.isNaN(publishTime)) {
    throw new MicropubRequestError("published must be a date and time, as 2026-11-28T09:30:00Z");
  }
  const names = (properties.category ?? []).map((value) => text(value) ?? "").filter((value) => value.trim() !== "");
  const input = {
    title: title || "Untitled",
    slug: text(properties["mp-slug"]?.[0]) ?? before?.slug ?? "",
    ...body,
    excerpt: text(properties.summary?.[0])?.trim() || bodyText.slice(0, EXCERPT_FROM_TEXT) || title || "Untitled",
    author: before?.author ?? options.author,
    coverImage: before?.coverImage ?? "",
    ...categoryAndTags(names, options.categories, options.before),
    canonicalUrl: before?.canonicalUrl ?? "",
    published: status === "published",
    commentsClosed: before?.commentsClosed ?? false,
    webmentionsOff: before?.webmentionsOff ?? false,
    emailSubscribers: false,
    publishAt: publishTime === undefined ? "" : new Date(publishTime).toISOString().slice(0, 19),
    publishAtOffset: publishTime === undefined ? "" : "0",
  };
  if (body.content === "") throw new MicropubRequestError("A post needs content, or a photo");
  const parsed = (status === "draft" ? postDraftSchema : micropubPostSchema).safeParse(input);
  if (!parsed.success) throw new MicropubRequestError(parsed.error.issues[0]?.message ?? "The post is not valid");
  return parsed.data;
}

/** A post told as Micropub properties (`q=source`): what an app sent, as it would send it again. */
export function propertiesOf(post: Post, url: string): Mf2Properties {
  return {
    name: [post.title],
    content: [post.format === "html" ? { html: post.content } : post.content],
    summary: [post.excerpt],
    category: [post.category, ...post.tags].filter((name) => name !== ""),
    published: [post.publishAt ?? post.createdAt],
    updated: [post.updatedAt],
    "post-status": [post.published ? "published" : "draft"],
    "mp-slug": [post.slug],
    url: [url],
    ...(post.coverImage ? { featured: [post.coverImage] } : {}),
  };
}
