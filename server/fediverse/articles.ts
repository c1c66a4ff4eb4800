import type { Context, Federation } from "@fedify/fedify";
import { Article, Create, Hashtag, Image, PUBLIC_COLLECTION } from "@fedify/vocab";
import { Temporal as TemporalPolyfill } from "@js-temporal/polyfill";
import { isDomainError } from "#domain/errors.ts";
import { absoluteImage } from "#domain/media.ts";
import { type Page, pageCount } from "#domain/pagination.ts";
import type { Post, PostSummary } from "#domain/post.ts";
import { absoluteUrl, postPath, resolveUrl } from "#domain/site-urls.ts";
import { rewriteHtmlUrls } from "../render/index.ts";

/** The one actor: its identifier is fixed, so a new handle never breaks a follow (docs/decisions/0015). */
export const BLOG_ACTOR = "blog";

/** Node has no Temporal yet: Fedify runs on this polyfill, and its types name the standard one. */
export function instant(iso: string): Temporal.Instant {
  return TemporalPolyfill.Instant.from(new Date(iso).toISOString()) as unknown as Temporal.Instant;
}

/** An image at an address as a post or the settings give it, made absolute; undefined for none. */
export function imageAt(siteUrl: string, reference: string): Image | undefined {
  const image = absoluteImage(siteUrl, reference);
  return image && new Image({ url: image.url, mediaType: image.type ?? null });
}

/** When a post became public: its publishing time, or its creation for one published at once. */
export function publishedAt(post: Pick<Post, "publishAt" | "createdAt">): string {
  return post.publishAt ?? post.createdAt;
}

/**
 * A public post as an ActivityPub Article: its stable id (`/ap/posts/{id}`, kept across slug
 * changes), its page as `url`, the body as stored (sanitised at save time) with every address
 * absolute, since it is read away from this site, tags as hashtags and the cover as an image.
 */
export function toArticle(context: Context<void>, siteUrl: string, post: Post): Article {
  const url = absoluteUrl(siteUrl, postPath(post.slug));
  const cover = imageAt(siteUrl, post.coverImage);
  return new Article({
    id: context.getObjectUri(Article, { id: post.id }),
    attribution: context.getActorUri(BLOG_ACTOR),
    to: PUBLIC_COLLECTION,
    cc: context.getFollowersUri(BLOG_ACTOR),
    name: post.title,
    summary: post.excerpt,
    content: rewriteHtmlUrls(post.contentHtml, (reference) => resolveUrl(siteUrl, reference, url)),
    mediaType: "text/html",
    url: new URL(url),
    published: instant(publishedAt(post)),
    updated: instant(post.updatedAt),
    tags: post.tags.map(
      (tag) =>
        new Hashtag({
          name: `#${tag.replace(/\s+/g, "")}`,
          href: new URL(absoluteUrl(siteUrl, `/blog?${new URLSearchParams({ q: tag })}`)),
        }),
    ),
    attachments: cover ? [cover] : [],
  });
}

/** How many posts one page of the outbox holds. */
const OUTBOX_PAGE = 20;

/** What the Articles and the outbox read: public posts only, through the posts service. */
export interface PostSources {
  siteUrl: string;
  /** The public post with this id; throws a domain error when there is none (a draft, a scheduled post). */
  findPublicPost(id: string): Promise<Post>;
  listPublishedPosts(query: undefined, page: number, pageSize: number): Promise<Page<PostSummary>>;
  countPublishedPosts(): Promise<number>;
  /** The version whose Create went out last, for each post that has one (`fediverse_posts`). */
  createdVersions(postIds: readonly string[]): Promise<Map<string, string>>;
}

/**
 * A post's Create, as delivery sends it and the outbox lists it, named by the version it was sent
 * at (`createdVersion`, the post's updated_at then): a post republished after its Delete gets a
 * Create of its own, which a follower's server would otherwise take for the first one again and
 * drop. Without a version (a post recorded without sending, or sent before Creates were named so):
 * `#create`.
 */
export function createActivityFor(
  context: Context<void>,
  siteUrl: string,
  post: Post,
  createdVersion: string | undefined,
): Create {
  const article = toArticle(context, siteUrl, post);
  const name = createdVersion === undefined ? "create" : `create/${Date.parse(createdVersion)}`;
  return new Create({
    id: new URL(`${article.id?.href}#${name}`),
    actor: context.getActorUri(BLOG_ACTOR),
    to: PUBLIC_COLLECTION,
    cc: context.getFollowersUri(BLOG_ACTOR),
    published: article.published,
    object: article,
  });
}

/**
 * Posts as Articles at `/ap/posts/{id}`, and the outbox: public posts, newest first, a page at a
 * time, with their count. Drafts and scheduled posts answer 404 and are never listed.
 */
export function registerArticles(federation: Federation<void>, sources: PostSources): void {
  const { siteUrl } = sources;
  federation.setObjectDispatcher(Article, "/ap/posts/{id}", async (context, { id }) => {
    const post = await findPublic(sources, id);
    return post ? toArticle(context, siteUrl, post) : null;
  });

  federation
    .setOutboxDispatcher("/ap/users/{identifier}/outbox", async (context, identifier, cursor) => {
      if (identifier !== BLOG_ACTOR || cursor === null) return null;
      const page = Number.parseInt(cursor, 10);
      if (!Number.isSafeInteger(page) || page < 1) return null;
      const summaries = await sources.listPublishedPosts(undefined, page, OUTBOX_PAGE);
      const ids = summaries.items.map((summary) => summary.id);
      const [posts, versions] = await Promise.all([
        Promise.all(ids.map((id) => findPublic(sources, id))),
        sources.createdVersions(ids),
      ]);
      const items = posts
        .filter((post) => post !== undefined)
        .map((post) => createActivityFor(context, siteUrl, post, versions.get(post.id)));
      return { items, nextCursor: page < pageCount(summaries) ? String(page + 1) : null };
    })
    .setFirstCursor(() => "1")
    .setLastCursor(async () => String(Math.max(1, Math.ceil((await sources.countPublishedPosts()) / OUTBOX_PAGE))))
    .setCounter((_context, identifier) => (identifier === BLOG_ACTOR ? sources.countPublishedPosts() : null));
}

async function findPublic(sources: PostSources, id: string): Promise<Post | undefined> {
  try {
    return await sources.findPublicPost(id);
  } catch (error) {
    if (isDomainError(error)) return undefined;
    throw error;
  }
}
