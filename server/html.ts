import { Parser } from "htmlparser2";
import sanitizeHtml from "sanitize-html";

/** The readable text of an HTML fragment, entities decoded, for search and descriptions. */
export function htmlToText(html: string): string {
  const parts: string[] = [];
  let skipDepth = 0;
  const parser = new Parser({
    onopentagname(name) {
      if (name === "script" || name === "style") skipDepth += 1;
      parts.push(" ");
    },
    onclosetag(name) {
      if (name === "script" || name === "style") skipDepth = Math.max(0, skipDepth - 1);
      parts.push(" ");
    },
    ontext(text) {
      if (skipDepth === 0) parts.push(text);
    },
  });
  parser.write(html);
  parser.end();
  return parts.join("").replace(/\s+/g, " ").trim();
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
  ],
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "title", "width", "height", "loading"],
    th: ["colspan", "rowspan", "scope"],
    td: ["colspan", "rowspan"],
    code: ["class"],
    time: ["datetime"],
    abbr: ["title"],
    ol: ["start"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  transformTags: {
    // Links in posts leave the site in a new tab without handing it our window.
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target ? { ...attribs, rel: "noopener noreferrer" } : attribs,
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { loading: "lazy", ...attribs } }),
  },
};

/** Post bodies are HTML written by an admin; this allowlist keeps formatting and drops anything executable. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, POST_HTML_POLICY);
}
