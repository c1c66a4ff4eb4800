import { Parser } from "htmlparser2";
import { escapeXml } from "#domain/escape.ts";

/** The attributes of a post body that hold one address each (server/kernel/html.ts lets no others through). */
const SINGLE_URL_ATTRIBUTES = new Set(["href", "src"]);
const MAY_HOLD_URL = /\b(?:href|src|srcset)\s*=/i;

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The candidates of a `srcset`: an address (white space never, commas possibly, inside it),
 * then descriptors up to the next comma. Trailing commas on an address end its candidate.
 */
function srcsetCandidates(value: string): { url: string; descriptors: string }[] {
  const candidates: { url: string; descriptors: string }[] = [];
  const candidate = /[\s,]*(\S+)/y;
  let match: RegExpExecArray | null;
  while ((match = candidate.exec(value))) {
    const url = match[1]!;
    if (url.endsWith(",")) {
      candidates.push({ url: url.replace(/,+$/, ""), descriptors: "" });
      continue;
    }
    const comma = value.indexOf(",", candidate.lastIndex);
    const stop = comma === -1 ? value.length : comma;
    candidates.push({ url, descriptors: value.slice(candidate.lastIndex, stop).trim() });
    candidate.lastIndex = stop;
  }
  return candidates;
}

function rewriteSrcset(value: string, resolve: (url: string) => string | undefined): string | undefined {
  const rewritten = srcsetCandidates(value).flatMap(({ url, descriptors }) => {
    const absolute = resolve(url);
    return absolute === undefined ? [] : [descriptors ? `${absolute} ${descriptors}` : absolute];
  });
  return rewritten.length === 0 ? undefined : rewritten.join(", ");
}

/**
 * Passes every address in an HTML fragment through `resolve`: each `href` and `src`, and
 * each candidate of a `srcset`. An attribute whose address `resolve` refuses (undefined) is
 * removed. Everything else in the fragment stays as it was, byte for byte.
 */
export function rewriteHtmlUrls(html: string, resolve: (url: string) => string | undefined): string {
  // Most of a feed's cost is parsing: a body without any address is not parsed at all.
  if (!MAY_HOLD_URL.test(html)) return html;
  const edits: Edit[] = [];
  const parser = new Parser(
    {
      onattribute(name, value) {
        let rewritten: string | undefined;
        if (SINGLE_URL_ATTRIBUTES.has(name)) rewritten = resolve(value);
        else if (name === "srcset") rewritten = rewriteSrcset(value, resolve);
        else return;
        if (rewritten === value) return;
        // The parser's indices span the whole attribute, name to closing quote.
        const text = rewritten === undefined ? "" : `${name}="${escapeXml(rewritten)}"`;
        edits.push({ start: parser.startIndex, end: parser.endIndex, text });
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  if (edits.length === 0) return html;
  let result = "";
  let at = 0;
  for (const edit of edits) {
    result += html.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return result + html.slice(at);
}
