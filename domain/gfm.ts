import type { Delimiter, MarkdownIt, StateInline, Token } from "markdown-it";

/** What GFM has and markdown-it leaves out: strikethrough with one tilde (not three), and links that start with `www.`. */
export function gfmExtensions(md: MarkdownIt): void {
  md.inline.ruler.at("strikethrough", tokenizeTildes);
  md.inline.ruler2.at("strikethrough", strikeMatchedTildes);
  md.linkify.add("www.", { validate: validateWwwLink, normalize: addWebScheme });
}

const TILDE = 0x7e;
/**
 * markdown-it pairs delimiters that share a marker. GFM pairs a run of tildes only with a run of
 * the same length, so each length gets a marker of its own; as they are not characters, no
 * other rule's delimiters can pair with them.
 */
const RUN_MARKERS = new Map([
  [1, -1],
  [2, -2],
]);

/** A run of one or two tildes may open or close a strikethrough; a longer run is text. */
function tokenizeTildes(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const token = state.push("text", "", 0);
  token.content = "~".repeat(scanned.length);
  const marker = RUN_MARKERS.get(scanned.length);
  if (marker !== undefined) {
    state.delimiters.push({
      marker,
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  }
  state.pos += scanned.length;
  return true;
}

function strike(token: Token, type: "s_open" | "s_close", nesting: 1 | -1): void {
  token.type = type;
  token.tag = "s";
  token.nesting = nesting;
  token.markup = token.content;
  token.content = "";
}

function strikeDelimiters(state: StateInline, delimiters: Delimiter[]): void {
  for (const opener of delimiters) {
    if (opener.marker >= 0 || opener.end === -1) continue;
    strike(state.tokens[opener.token]!, "s_open", 1);
    strike(state.tokens[delimiters[opener.end]!.token]!, "s_close", -1);
  }
}

function strikeMatchedTildes(state: StateInline): void {
  strikeDelimiters(state, state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) strikeDelimiters(state, meta.delimiters);
}

/** GFM links `www.` only at a line's start, after a space, or after `*`, `_`, `~` or `(`. */
const WWW_MAY_FOLLOW = /[\s*_~(]/;

/** The length of the host and path after `www.` at `pos`, or 0 where GFM sees no link. */
function validateWwwLink(text: string, pos: number, self: MarkdownIt["linkify"]): number {
  const before = text[pos - "www.".length - 1];
  if (before !== undefined && !WWW_MAY_FOLLOW.test(before)) return 0;
  const hostAndPath = self.re.get_relative_proto_validator();
  hostAndPath.lastIndex = pos;
  return hostAndPath.exec(text)?.[0].length ?? 0;
}

function addWebScheme(match: { url: string }): void {
  match.url = `http://${match.url}`;
}
