import { Parser } from "htmlparser2";
import sanitizeHtml from "sanitize-html";
import { type MediaImage, MEDIA_PATH_PATTERN, mediaUrl, srcsetFor } from "#domain/media.ts";

/** The readable text of an HTML fragment, entities decoded, for search and descriptions. */
export function htmlToText(html: string): string {
  const parts: string[] = [];
  let skipDepth = 0;
  // Between blocks a space; around an inline element none, so "the <em>pond</em>," stays "the pond,".
  const separate = (name: string) => {
    if (!INLINE_ELEMENTS.has(name)) parts.push(" ");
  };
  const parser = new Parser({
    onopentagname(name) {
      if (name === "script" || name === "style") skipDepth += 1;
      separate(name);
    },
    onclosetag(name) {
      if (name === "script" || name === "style") skipDepth = Math.max(0, skipDepth - 1);
      separate(name);
    },
    ontext(text) {
      if (skipDepth === 0) parts.push(text);
    },
  });
  parser.write(html);
  parser.end();
  return parts.join("").replace(/\s+/g, " ").trim();
}

/** Elements that sit inside a line of text: no word boundary at their edges. */
const INLINE_ELEMENTS = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "bdo",
  "cite",
  "code",
  "data",
  "del",
  "dfn",
  "em",
  "i",
  "ins",
  "kbd",
  "mark",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "u",
  "var",
]);

const HEX_COLOUR = /^#[0-9a-f]{3,8}$/i;
const CELL_ALIGNMENT = /^(left|right|center)$/;

/**
 * Ids the renderer gives headings (`h-…`) and footnotes (`fn1`, `fnref1`, `fnref1:1`): only
 * those survive, so a post cannot take an id the page itself uses (say, the comment form's).
 */
const OWN_ID = /^(h-[\p{L}\p{N}-]+|fn\d+|fnref\d+(:\d+)?)$/u;

function keepOwnId(tagName: string, attribs: sanitizeHtml.Attributes) {
  if (attribs.id === undefined || OWN_ID.test(attribs.id)) return { tagName, attribs };
  const { id: _dropped, ...rest } = attribs;
  return { tagName, attribs: rest };
}

const POST_HTML_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "pre",
    "code",
    "kbd",
    "samp",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "del",
    "ins",
    "mark",
    "small",
    "sub",
    "sup",
    "a",
    "img",
    "figure",
    "figcaption",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "caption",
    "span",
    "div",
    "abbr",
    "cite",
    "q",
    "time",
    // Rendered Markdown: task-list checkboxes, footnotes and the table of contents.
    "input",
    "section",
    "nav",
    "picture",
    "source",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel", "target", "id"],
    img: ["src", "srcset", "sizes", "alt", "title", "width", "height", "loading", "decoding"],
    source: ["srcset", "sizes", "type", "width", "height", "media"],
    th: ["colspan", "rowspan", "scope", "style"],
    td: ["colspan", "rowspan", "style"],
    code: ["class"],
    time: ["datetime"],
    abbr: ["title"],
    ol: ["start"],
    h1: ["id"],
    h2: ["id"],
    h3: ["id"],
    h4: ["id"],
    h5: ["id"],
    h6: ["id"],
    li: ["id"],
    sup: ["id"],
    input: ["type", "checked", "disabled", "aria-label"],
    nav: ["aria-label"],
    // Highlighted code scrolls sideways; keyboard users need to reach it.
    pre: ["style", "tabindex"],
    span: ["style"],
  },
  allowedClasses: {
    pre: ["shiki", "shiki-themes", "github-light", "github-dark"],
    span: ["line"],
    ul: ["contains-task-list"],
    li: ["task-list-item", "footnote-item", "toc-level-2", "toc-level-3"],
    input: ["task-list-item-checkbox"],
    sup: ["footnote-ref"],
    a: ["footnote-backref", "embed-card-link", "embed-video-link"],
    hr: ["footnotes-sep"],
    section: ["footnotes"],
    ol: ["footnotes-list"],
    nav: ["toc"],
    p: ["toc-title", "embed-card", "embed-video"],
  },
  // Only the colours Shiki writes, as CSS variables app/styles/site.css turns into the theme's colour,
  // and a table column's alignment as GFM writes it (the CSP allows inline styles).
  allowedStyles: {
    pre: Object.fromEntries(
      ["--shiki-light", "--shiki-dark", "--shiki-light-bg", "--shiki-dark-bg"].map((name) => [name, [HEX_COLOUR]]),
    ),
    span: Object.fromEntries(["--shiki-light", "--shiki-dark"].map((name) => [name, [HEX_COLOUR]])),
    th: { "text-align": [CELL_ALIGNMENT] },
    td: { "text-align": [CELL_ALIGNMENT] },
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  // A link whose address was empty or dropped (another scheme) goes nowhere: keep its text and
  // leave the tag out. An anchor with an id of our own stays, as a footnote's target.
  exclusiveFilter: (frame) =>
    frame.tag === "a" && frame.attribs.href === undefined && frame.attribs.id === undefined ? "excludeTag" : false,
  transformTags: {
    // Links in posts leave the site in a new tab without handing it our window.
    a: (tagName, attribs) => keepOwnId(tagName, attribs.target ? { ...attribs, rel: "noopener noreferrer" } : attribs),
    img: (tagName, attribs) => ({ tagName, attribs: { loading: "lazy", ...attribs } }),
    // A post can show a ticked box but never ask for input.
    input: (_tagName, attribs) => ({
      tagName: attribs.type === "checkbox" ? "input" : "span",
      attribs:
        attribs.type === "checkbox"
          ? {
              type: "checkbox",
              disabled: "",
              // A task's box needs a name of its own for screen readers; the task's text follows it.
              ...(attribs.checked === undefined ? { "aria-label": "To do" } : { checked: "", "aria-label": "Done" }),
            }
          : {},
    }),
    pre: (tagName, attribs) => ({
      tagName,
      attribs: attribs.tabindex === undefined ? attribs : { ...attribs, tabindex: "0" },
    }),
    ...Object.fromEntries(["h1", "h2", "h3", "h4", "h5", "h6", "li", "sup"].map((tag) => [tag, keepOwnId])),
  },
};

/** Post bodies are HTML written by an admin; this allowlist keeps formatting and drops anything executable. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, POST_HTML_POLICY);
}

/** A post body is at most the article's width: 48rem on wide screens, the viewport below. */
export const POST_BODY_IMAGE_SIZES = "(min-width: 48rem) 48rem, 100vw";
const IMG_TAG = /<img\b[^>]*>/g;

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/**
 * Turns each `<img>` of an uploaded image into a `<picture>` with AVIF and WebP sources,
 * every width, and the image's own dimensions, so readers get a right-sized modern file
 * and the page does not jump. Runs on sanitised HTML, whose attributes are quoted and
 * escaped; what it adds comes from the media table, never from the post.
 */
export function pictureUploadedImages(safeHtml: string, images: ReadonlyMap<string, MediaImage>): string {
  if (images.size === 0) return safeHtml;
  return safeHtml.replace(IMG_TAG, (tag) => {
    const hash = MEDIA_PATH_PATTERN.exec(attribute(tag, "src") ?? "")?.[1];
    const image = hash ? images.get(hash) : undefined;
    if (!image) return tag;
    const alt = attribute(tag, "alt") ?? "";
    const title = attribute(tag, "title");
    const sizes = POST_BODY_IMAGE_SIZES;
    return (
      `<picture>` +
      `<source type="image/avif" srcset="${srcsetFor(image, "avif")}" sizes="${sizes}" />` +
      `<source type="image/webp" srcset="${srcsetFor(image, "webp")}" sizes="${sizes}" />` +
      `<img src="${mediaUrl(image.hash, image.widths.at(-1)!, image.format)}" srcset="${srcsetFor(image, image.format)}"` +
      ` sizes="${sizes}" width="${image.width}" height="${image.height}" alt="${alt}"` +
      (title === undefined ? "" : ` title="${title}"`) +
      ` loading="lazy" decoding="async" />` +
      `</picture>`
    );
  });
}
