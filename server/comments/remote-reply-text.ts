import { Parser } from "htmlparser2";
import { COMMENT_AUTHOR_MAX, COMMENT_CONTENT_MAX } from "#domain/comment.ts";
import { cleanText } from "#domain/forms.ts";

const BLOCK_TAGS = new Set(["p", "div", "blockquote", "li", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol"]);

// Mastodon and others start a reply with the handles it answers ("@blog@example.com "): noise on a comment.
const LEADING_MENTIONS = /^(?:@[\p{L}\p{N}_.-]+(?:@[\p{L}\p{N}.:-]+)?[\s,]*)+/u;

function clip(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max
    ? text
    : `${characters
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

/**
 * A remote note's HTML as a comment's text, which pages show as text, never as HTML (domain/comment.ts):
 * paragraphs and line breaks kept, tags dropped, entities decoded, scripts and styles left out, cut to the
 * length a comment may have. Nothing of the markup survives, so nothing in it can run or load.
 */
export function remoteReplyText(html: string): string {
  const parts: string[] = [];
  let skipDepth = 0;
  const parser = new Parser({
    onopentagname(name) {
      if (name === "script" || name === "style") skipDepth += 1;
      else if (name === "br") parts.push("\n");
      else if (BLOCK_TAGS.has(name)) parts.push("\n\n");
    },
    onclosetag(name) {
      if (name === "script" || name === "style") skipDepth = Math.max(0, skipDepth - 1);
      else if (BLOCK_TAGS.has(name)) parts.push("\n\n");
    },
    ontext(text) {
      if (skipDepth === 0) parts.push(cleanText(text).replace(/\s+/g, " "));
    },
  });
  parser.write(html);
  parser.end();
  const text = parts
    .join("")
    .replace(/[ \t]*\n[ \t]*/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .replace(LEADING_MENTIONS, "")
    .trim();
  return clip(text, COMMENT_CONTENT_MAX);
}

/** The name a remote author goes by on a comment: their display name, else their handle; one line, a comment's length. */
export function remoteAuthorName(name: string | null | undefined, handle: string): string {
  const oneLine = cleanText(name ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return clip(oneLine || handle, COMMENT_AUTHOR_MAX);
}
