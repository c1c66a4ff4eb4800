import MarkdownIt from "markdown-it";
import anchor from "markdown-it-anchor";
import footnote from "markdown-it-footnote";
import taskLists from "markdown-it-task-lists";
import { Parser } from "htmlparser2";
import type { PostFormat } from "#domain/post.ts";
import { htmlToText, sanitizePostHtml } from "../kernel/html.ts";
import { gfmExtensions } from "#domain/gfm.ts";
import { highlightCode } from "./highlight.ts";
import { escapeHtml } from "#domain/escape.ts";
import { bareUrls, embeds, type LinkPreviews } from "./embeds.ts";

/** A post body ready to store: sanitised HTML (with its table of contents), and its reading time. */
export interface RenderedBody {
  html: string;
  readingMinutes: number;
  wordCount: number;
}

/** Posts with more headings than this open with a table of contents. */
export const TOC_MIN_HEADINGS = 4;
const WORDS_PER_MINUTE = 230;

/**
 * Ids a reader can link to and that stay put when the text around a heading changes.
 * Prefixed, so a heading called "comments" cannot take an id the page itself uses.
 */
export function slugifyHeading(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `h-${slug || "section"}`;
}

// Raw HTML is allowed, as CommonMark says: the sanitiser, not the parser, decides what survives,
// exactly as for posts written in HTML.
const markdown = new MarkdownIt({
  html: true,
  linkify: true,
  typographer: false,
  highlight: (code, language) => highlightCode(code, language) ?? "",
})
  .use(gfmExtensions)
  .use(anchor, { slugify: slugifyHeading, tabIndex: false })
  .use(footnote)
  .use(taskLists, { enabled: false })
  .use(embeds);

interface Heading {
  level: number;
  id: string;
  text: string;
}

function collectHeadings(html: string): Heading[] {
  const headings: Heading[] = [];
  let current: Heading | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      const level = /^h([2-3])$/.exec(name)?.[1];
      if (level && attributes.id) current = { level: Number(level), id: attributes.id, text: "" };
    },
    ontext(text) {
      if (current) current.text += text;
    },
    onclosetag(name) {
      if (current && name === `h${current.level}`) {
        headings.push({ ...current, text: current.text.replace(/\s+/g, " ").trim() });
        current = undefined;
      }
    },
  });
  parser.write(html);
  parser.end();
  return headings;
}

function tableOfContents(headings: Heading[]): string {
  const items = headings
    .map(
      (heading) =>
        `<li class="toc-level-${heading.level}"><a href="#${escapeHtml(heading.id)}">${escapeHtml(heading.text)}</a></li>`,
    )
    .join("");
  return `<nav class="toc" aria-label="Contents"><p class="toc-title">Contents</p><ol>${items}</ol></nav>`;
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * The one pipeline for a post body, used at save time and by the editor's preview, so the
 * preview is what readers get: Markdown rendered (headings with ids, highlighted code), the
 * result sanitised like any HTML body, then a table of contents for long posts. A URL alone on
 * its line becomes a card from `previews` (server/render/embeds.ts).
 */
export function renderPostBody(format: PostFormat, source: string, previews?: LinkPreviews): RenderedBody {
  const body = sanitizePostHtml(format === "markdown" ? markdown.render(source, { previews }) : source);
  const headings = collectHeadings(body);
  const wordCount = countWords(htmlToText(body));
  // The contents go through the sanitiser too: everything stored has passed it.
  const html = headings.length >= TOC_MIN_HEADINGS ? sanitizePostHtml(tableOfContents(headings) + body) : body;
  return {
    html,
    readingMinutes: Math.max(1, Math.round(wordCount / WORDS_PER_MINUTE)),
    wordCount,
  };
}

/**
 * A few lines of the writer's Markdown that are not a post (the home page's introduction): the
 * same parser and sanitiser as a body, without a table of contents or a reading time.
 */
export function renderMarkdownSnippet(source: string): string {
  return sanitizePostHtml(markdown.render(source));
}

/** The URLs alone on their line in a Markdown body, whose Open Graph preview its cards show. */
export function linksToPreview(format: PostFormat, source: string): string[] {
  return format === "markdown" ? bareUrls(markdown, source) : [];
}
