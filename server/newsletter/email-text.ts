import { Parser } from "htmlparser2";

// The plain-text part of every email the blog sends (server/newsletter/email.ts): unlike the
// kernel's htmlToText, which keeps only the words for search and excerpts, it keeps a reader's
// layout in text: lines, list markers, code as written and each link's address.

/** Tags whose text starts and ends a line of the plain-text part. */
const BLOCK_TAGS = new Set(
  "p div h1 h2 h3 h4 h5 h6 ul ol li blockquote pre figure figcaption table tr section hr dl dt dd picture".split(" "),
);

/**
 * The plain-text part: the HTML's text with blocks on lines of their own, list items marked,
 * code kept as written, and each link's address in brackets after its text.
 */
export function htmlToText(html: string): string {
  let out = "";
  let preDepth = 0;
  const links: { href: string | undefined; start: number }[] = [];
  const lists: { ordered: boolean; count: number }[] = [];
  const endLine = (blankLines: number) => {
    out = out.replace(/[ \t]+$/, "");
    if (out === "") return;
    const wanted = "\n".repeat(blankLines + 1);
    const trailing = /\n*$/.exec(out)![0].length;
    if (trailing < wanted.length) out += wanted.slice(trailing);
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === "br") out += "\n";
        else if (name === "li") {
          endLine(0);
          const list = lists.at(-1);
          const marker = list?.ordered ? `${(list.count += 1)}. ` : "- ";
          out += "  ".repeat(Math.max(0, lists.length - 1)) + marker;
        } else if (BLOCK_TAGS.has(name)) endLine(lists.length > 0 ? 0 : 1);
        if (name === "ul" || name === "ol") lists.push({ ordered: name === "ol", count: 0 });
        if (name === "pre") preDepth += 1;
        if (name === "a") links.push({ href: attribs.href, start: out.length });
        if (name === "img" && attribs.alt) out += `[${attribs.alt}]`;
        if (name === "td" || name === "th") out += out.endsWith("\n") || out === "" ? "" : " | ";
      },
      ontext(text) {
        if (preDepth > 0) out += text;
        else {
          const collapsed = text.replace(/\s+/g, " ");
          out += out === "" || out.endsWith("\n") || out.endsWith(" ") ? collapsed.trimStart() : collapsed;
        }
      },
      onclosetag(name) {
        if (name === "a") {
          const link = links.pop();
          const text = link ? out.slice(link.start).trim() : "";
          if (link?.href && link.href !== text && link.href !== `mailto:${text}`) out += ` [${link.href}]`;
        }
        if (name === "pre") preDepth -= 1;
        if (name === "ul" || name === "ol") lists.pop();
        if (BLOCK_TAGS.has(name) && name !== "li") endLine(lists.length > 0 ? 0 : 1);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out.trim();
}
