// What a page that mentions a post says (https://www.w3.org/TR/webmention/#webmention-verification,
// and microformats2 for who wrote it and what it is): read from its HTML, never run or shown as HTML.
import { Parser } from "htmlparser2";
import { mf2 } from "microformats-parser";
import type { MentionKind } from "#domain/webmention.ts";

type Item = ReturnType<typeof mf2>["items"][number];
type Property = Item["properties"][string][number];

/** What a verified source page says of the post it links. */
export interface SourceReading {
  kind: MentionKind;
  author: { name: string | null; url: string; photo: string | null };
  /** The entry's content as HTML (made text by the comment service), or its name, or empty. */
  contentHtml: string;
  published: Date | undefined;
}

/** The address without its fragment, in the one form URLs compare in; undefined when it is none. */
function comparable(address: string, base: string): string | undefined {
  if (!URL.canParse(address.trim(), base)) return undefined;
  const url = new URL(address.trim(), base);
  url.hash = "";
  return url.href;
}

/** Every `href` and `src` of the page's elements, in order: what it links and shows. */
export function hrefsOf(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(_name, attributes) {
        for (const address of [attributes.href, attributes.src]) if (address !== undefined) found.push(address.trim());
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

/** Whether the page links `target` (an element whose `href` or `src` names it). */
export function linksTo(html: string, pageUrl: string, target: string): boolean {
  const wanted = comparable(target, target);
  return hrefsOf(html).some((address) => comparable(address, pageUrl) === wanted);
}

function isItem(property: Property | undefined): property is Item {
  return typeof property === "object" && property !== null && "properties" in property;
}

function textOf(property: Property | undefined): string | null {
  if (property === undefined) return null;
  if (typeof property === "string") return property;
  if ("html" in property) return property.value;
  if ("alt" in property) return property.value ?? null;
  if (isItem(property)) return typeof property.value === "string" ? property.value : null;
  return null;
}

function firstText(item: Item, name: string): string | null {
  return textOf(item.properties[name]?.[0])?.trim() || null;
}

/** Every h-entry of the page, nested ones (in an h-feed, or as children) included, page order. */
function entriesOf(items: readonly Item[]): Item[] {
  return items.flatMap((item) => [
    ...(item.type?.includes("h-entry") ? [item] : []),
    ...entriesOf(item.children ?? []),
    ...entriesOf(Object.values(item.properties).flat().filter(isItem)),
  ]);
}

const KIND_PROPERTIES: readonly [string, MentionKind][] = [
  ["in-reply-to", "reply"],
  ["like-of", "like"],
  ["repost-of", "repost"],
  ["bookmark-of", "bookmark"],
];

function namesTarget(entry: Item, property: string, target: string, base: string): boolean {
  return (entry.properties[property] ?? []).some((value) => {
    const address = isItem(value) ? firstText(value, "url") : textOf(value);
    return address !== null && comparable(address, base) === comparable(target, target);
  });
}

function httpAddress(address: string | null, base: string): string | null {
  if (address === null || !URL.canParse(address, base)) return null;
  const url = new URL(address, base);
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

/**
 * Reads a source page that links `target`: the entry that names it (in-reply-to, like-of,
 * repost-of, bookmark-of) decides the kind, else the page's first entry is a mention; its
 * author h-card (else the page's own h-card) names who wrote it, else the page's host does.
 */
export function readSource(html: string, pageUrl: string, target: string): SourceReading {
  const parsed = mf2(html, { baseUrl: pageUrl });
  const entries = entriesOf(parsed.items);
  let kind: MentionKind = "mention";
  let entry = entries[0];
  search: for (const candidate of entries) {
    for (const [property, named] of KIND_PROPERTIES) {
      if (namesTarget(candidate, property, target, pageUrl)) {
        kind = named;
        entry = candidate;
        break search;
      }
    }
  }
  const authorProperty = entry?.properties.author?.[0];
  const card = isItem(authorProperty) ? authorProperty : parsed.items.find((item) => item.type?.includes("h-card"));
  const authorUrl =
    httpAddress(card ? firstText(card, "url") : null, pageUrl) ??
    (typeof authorProperty === "string" ? httpAddress(authorProperty, pageUrl) : null) ??
    new URL("/", pageUrl).href;
  const authorName =
    (card ? firstText(card, "name") : null) ??
    (typeof authorProperty === "string" && !httpAddress(authorProperty, pageUrl) ? authorProperty : null);
  const content = entry?.properties.content?.[0];
  const contentHtml =
    typeof content === "object" && content !== null && "html" in content
      ? content.html
      : (textOf(content) ?? (entry ? (firstText(entry, "summary") ?? firstText(entry, "name")) : null) ?? "");
  const published = entry ? firstText(entry, "published") : null;
  const publishedAt = published !== null ? new Date(published) : undefined;
  return {
    kind,
    author: { name: authorName, url: authorUrl, photo: card ? httpAddress(firstText(card, "photo"), pageUrl) : null },
    contentHtml: typeof contentHtml === "string" ? contentHtml : "",
    published: publishedAt && !Number.isNaN(publishedAt.getTime()) ? publishedAt : undefined,
  };
}
