import { isRouteErrorResponse, type MetaDescriptor } from "react-router";
import { categoryPath } from "#domain/categories.ts";
import { type ArticleData, postPath } from "./post-card-data.ts";
import { absoluteUrl, canonicalUrl, FEED_FORMATS, type FeedFormat, feedPath } from "./site-urls.ts";
import type { Author } from "#domain/account.ts";
import { mediaUrl } from "#domain/media.ts";
import { authorPath, feedPathUnder } from "#domain/site-urls.ts";

export const SITE_NAME = "Inkwell";
export const SITE_DESCRIPTION = "Notes on development, technology, design and business from a personal blog.";

/** The title and description every page carries; the site name is appended to the title. */
export function pageMeta(title: string, description: string = SITE_DESCRIPTION): MetaDescriptor[] {
  return [{ title: `${title} | ${SITE_NAME}` }, { name: "description", content: description }];
}

/** The message a route's error boundary shows: the spec's text for expected failures, else a generic one. */
export function routeErrorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const message = (error.data as { message?: unknown } | null)?.message;
    if (typeof message === "string") return message;
    return error.status === 404 ? "Page Not Found" : "Something went wrong";
  }
  return "Something went wrong";
}

/** Meta for a page whose loader failed: the error's message as the title, kept out of search engines. */
export function errorMeta(error: unknown): MetaDescriptor[] {
  return [...pageMeta(routeErrorMessage(error)), NOINDEX];
}

export const NOINDEX: MetaDescriptor = { name: "robots", content: "noindex" };

interface MetaMatchLike {
  id: string;
  loaderData?: unknown;
}

/** SITE_URL, from the root loader's data, for a meta function's absolute URLs. */
export function siteUrlFrom(matches: readonly (MetaMatchLike | undefined)[]): string {
  const root = matches.find((match) => match?.id === "root")?.loaderData as { site?: { siteUrl?: string } } | undefined;
  return root?.site?.siteUrl ?? "http://localhost:3000";
}

export interface SeoPage {
  title: string;
  description: string;
  matches: readonly (MetaMatchLike | undefined)[];
  location: { pathname: string; search: string };
  /** Searches and private pages: no canonical URL, and asked not to be indexed. */
  noindex?: boolean;
  /** The page's canonical address when it is not this page's own: a post first published elsewhere. */
  canonical?: string;
  /** Absolute, or a path on this site. */
  image?: string;
  article?: { publishedTime: string; modifiedTime: string; author: string; section: string; tags: string[] };
  /** Breadcrumb trail after Home: names with paths on this site. */
  breadcrumbs?: { name: string; path: string }[];
  /** Extra JSON-LD objects, such as a post's BlogPosting. */
  jsonLd?: Record<string, unknown>[];
}

/**
 * A public page's whole head: title, description, canonical URL, Open Graph and Twitter
 * cards, article times, JSON-LD. JSON-LD is a data block, which the CSP's script-src does
 * not govern, so it needs no nonce.
 */
export function seoMeta(page: SeoPage): MetaDescriptor[] {
  const siteUrl = siteUrlFrom(page.matches);
  const fullTitle = `${page.title} | ${SITE_NAME}`;
  const url = page.canonical || canonicalUrl(siteUrl, page.location);
  const image = page.image ? absoluteUrl(siteUrl, page.image) : undefined;
  const tags: MetaDescriptor[] = [...pageMeta(page.title, page.description)];
  if (page.noindex) tags.push(NOINDEX);
  else tags.push({ tagName: "link", rel: "canonical", href: url });
  tags.push(
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: page.article ? "article" : "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:locale", content: "en_US" },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: page.description },
  );
  if (image) tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
  if (page.article) {
    const { publishedTime, modifiedTime, author, section, tags: articleTags } = page.article;
    tags.push(
      { property: "article:published_time", content: publishedTime },
      { property: "article:modified_time", content: modifiedTime },
      { property: "article:author", content: author },
      { property: "article:section", content: section },
      ...articleTags.map((tag) => ({ property: "article:tag", content: tag })),
    );
  }
  for (const data of page.jsonLd ?? []) tags.push({ "script:ld+json": data as never });
  if (page.breadcrumbs) {
    const trail = [{ name: "Home", path: "/" }, ...page.breadcrumbs];
    tags.push({
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        itemListElement: trail.map((crumb, index) => ({
          "@type": "ListItem",
          position: index + 1,
          name: crumb.name,
          item: absoluteUrl(siteUrl, crumb.path),
        })),
      },
    });
  }
  return tags;
}

/** The site's name as the owner set it in Settings, from the root loader's data. */
export function siteNameFrom(matches: readonly unknown[]): string {
  return siteOf(matches)?.title || SITE_NAME;
}

/** The JSON-LD a post page carries: what search engines read for an article's rich result. */
export function blogPostingJsonLd(
  site: { url: string; name: string },
  post: {
    title: string;
    excerpt: string;
    author: string;
    coverImage: string;
    category: string;
    tags: string[];
    createdAt: string;
    updatedAt: string;
  },
  url: string,
  author?: Pick<Author, "slug" | "avatar">,
): Record<string, unknown> {
  const siteUrl = site.url;
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: post.excerpt,
    image: [absoluteUrl(siteUrl, post.coverImage)],
    datePublished: post.createdAt,
    dateModified: post.updatedAt,
    author: {
      "@type": "Person",
      name: post.author,
      ...(author ? { url: absoluteUrl(siteUrl, authorPath(author.slug)) } : {}),
      ...(author?.avatar ? { image: absoluteUrl(siteUrl, mediaUrl(author.avatar, 192, "png")) } : {}),
    },
    publisher: {
      "@type": "Organization",
      name: site.name,
      url: absoluteUrl(siteUrl, "/"),
      logo: { "@type": "ImageObject", url: absoluteUrl(siteUrl, "/favicon.svg") },
    },
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    articleSection: post.category,
    keywords: post.tags.join(", "),
    url,
  };
}

/** A post page's whole head: its article times, section and tags, breadcrumbs and BlogPosting. */
export function postMeta(
  post: ArticleData,
  page: Pick<SeoPage, "matches" | "location">,
  author?: Pick<Author, "slug" | "avatar">,
): MetaDescriptor[] {
  const siteUrl = siteUrlFrom(page.matches);
  const url = post.canonicalUrl || absoluteUrl(siteUrl, postPath(post.slug));
  return seoMeta({
    ...page,
    canonical: post.canonicalUrl,
    title: post.title,
    description: post.excerpt,
    image: post.coverImage,
    article: {
      publishedTime: post.createdAt,
      modifiedTime: post.updatedAt,
      author: post.author,
      section: post.category,
      tags: post.tags,
    },
    breadcrumbs: [...categoryCrumbs(post.category), { name: post.title, path: postPath(post.slug) }],
    jsonLd: [blogPostingJsonLd({ url: siteUrl, name: siteNameFrom(page.matches) }, post, url, author)],
  });
}

/** The breadcrumb trail of a category page, and of a post in it. */
export function categoryCrumbs(category: string): { name: string; path: string }[] {
  return [
    { name: "Categories", path: "/categories" },
    { name: category, path: categoryPath(category) },
  ];
}

/** `<link rel="alternate">` for a tag's or an author's feeds (`path`: their page), titled `{name} | {site}`. */
export function scopedFeedLinks(
  siteName: string,
  name: string,
  path: string,
): { tagName: "link"; rel: "alternate"; type: string; href: string; title: string }[] {
  return (Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => ({
    tagName: "link",
    rel: "alternate",
    type: FEED_FORMATS[format].type,
    href: feedPathUnder(format, path),
    title: `${name} | ${siteName} (${FEED_FORMATS[format].label})`,
  }));
}

/** `<link rel="alternate">` for the blog's feeds, or a category's, titled with the blog's name from Settings. */
export function feedLinks(
  siteName: string,
  category?: string,
): { rel: "alternate"; type: string; href: string; title: string }[] {
  const owner = category ? `${category} | ${siteName}` : siteName;
  return (Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => ({
    rel: "alternate",
    type: FEED_FORMATS[format].type,
    href: feedPath(format, category),
    title: `${owner} (${FEED_FORMATS[format].label})`,
  }));
}

interface SiteNaming {
  title: string;
  description: string;
}

/** The site's own name and description (Settings), from the root loader's data. */
function siteOf(matches: readonly unknown[]): SiteNaming | undefined {
  for (const match of matches) {
    const { id, loaderData } = (match ?? {}) as { id?: string; loaderData?: { site?: SiteNaming } };
    if (id === "root" && loaderData?.site) return loaderData.site;
  }
  return undefined;
}

/**
 * Names the page after the site as the owner set it in Settings: the title's suffix (the
 * document's and the social cards'), Open Graph's site name, and the default description
 * wherever a page has none of its own.
 */
export function withSite<Args extends { matches: readonly unknown[] }>(
  build: (args: Args) => MetaDescriptor[],
): (args: Args) => MetaDescriptor[] {
  return (args) => {
    const descriptors = build(args);
    const site = siteOf(args.matches);
    if (!site) return descriptors;
    const suffix = ` | ${SITE_NAME}`;
    const renamed = (text: string) =>
      text.endsWith(suffix) ? `${text.slice(0, -SITE_NAME.length)}${site.title}` : text;
    return descriptors.map((descriptor) => {
      if ("title" in descriptor && typeof descriptor.title === "string") {
        return { ...descriptor, title: renamed(descriptor.title) };
      }
      if (!("content" in descriptor) || typeof descriptor.content !== "string") return descriptor;
      if ("property" in descriptor && descriptor.property === "og:site_name") {
        return { ...descriptor, content: site.title };
      }
      if (descriptor.content === SITE_DESCRIPTION) {
        return { ...descriptor, content: site.description || SITE_DESCRIPTION };
      }
      return { ...descriptor, content: renamed(descriptor.content) };
    });
  };
}
