// Embeds (issue 36, docs/decisions/0032-visual-editor.md "Embeds"): a paragraph holding only a
// bare URL stays that URL in the stored Markdown (every export, feed reader and writing app
// understands it) and becomes a card when rendered here. Nothing on a reader's page asks a third
// party for anything: a video is a link to its player, a bookmark shows what the blog fetched
// and stored when the post was saved (server/embeds), never an image from the other site.
import type { MarkdownIt, Token } from "markdown-it";
import { escapeHtml } from "#domain/escape.ts";

/** What the blog read from a page's Open Graph tags (server/embeds), already plain text. */
export interface LinkPreview {
  url: string;
  title: string;
  description: string;
  siteName: string;
}

/** The previews a render may use, by URL as written. */
export type LinkPreviews = ReadonlyMap<string, LinkPreview>;

/** The player a YouTube or Vimeo address plays in, without cookies; undefined for any other address. */
export function videoPlayer(address: string): { player: string; site: string } | undefined {
  if (!URL.canParse(address)) return undefined;
  const url = new URL(address);
  const host = url.hostname.replace(/^(www|m)\./, "");
  let id: string | null | undefined;
  if (host === "youtube.com" && url.pathname === "/watch") id = url.searchParams.get("v");
  else if (host === "youtu.be" || (host === "youtube.com" && /^\/(shorts|embed)\//.test(url.pathname)))
    id = url.pathname.split("/").filter(Boolean).at(-1);
  if (id && /^[\w-]{6,20}$/.test(id))
    return { player: `https://www.youtube-nocookie.com/embed/${id}`, site: "YouTube" };
  const vimeo = host === "vimeo.com" ? /^\/(\d{3,12})$/.exec(url.pathname)?.[1] : undefined;
  if (vimeo) return { player: `https://player.vimeo.com/video/${vimeo}?dnt=1`, site: "Vimeo" };
  return undefined;
}

/** The card for a URL alone on its line, or undefined to leave it a plain link. */
export function embedCard(address: string, previews: LinkPreviews): string | undefined {
  const video = videoPlayer(address);
  if (video)
    return `<p class="embed-video"><a class="embed-video-link" href="${escapeHtml(video.player)}" rel="noopener">Play the video on ${video.site}</a></p>\n`;
  const preview = previews.get(address);
  if (!preview?.title) return undefined;
  const description = preview.description ? `<br><span>${escapeHtml(preview.description)}</span>` : "";
  const site = escapeHtml(preview.siteName || new URL(address).hostname);
  return `<p class="embed-card"><a class="embed-card-link" href="${escapeHtml(address)}" rel="noopener"><strong>${escapeHtml(preview.title)}</strong>${description}<br><small>${site}</small></a></p>\n`;
}

/** The URL of a paragraph that is only a bare URL (linkified or an autolink), as written. */
function bareUrl(children: Token[] | null): string | undefined {
  if (children?.length !== 3) return undefined;
  const [open, text, close] = children as [Token, Token, Token];
  if (open.type !== "link_open" || text.type !== "text" || close.type !== "link_close") return undefined;
  if (open.markup !== "linkify" && open.markup !== "autolink") return undefined;
  const href = open.attrGet("href");
  return typeof href === "string" && /^https?:\/\//.test(href) ? href : undefined;
}

/** The markdown-it plugin: `env.previews` (LinkPreviews) holds what the cards show. */
export function embeds(md: MarkdownIt): void {
  md.core.ruler.push("embeds", (state) => {
    const previews = (state.env as { previews?: LinkPreviews }).previews ?? new Map();
    const tokens = state.tokens;
    for (let index = 0; index + 2 < tokens.length; index += 1) {
      const [open, inline, close] = [tokens[index]!, tokens[index + 1]!, tokens[index + 2]!];
      if (open.type !== "paragraph_open" || close.type !== "paragraph_close" || open.level !== 0) continue;
      const address = bareUrl(inline.children);
      const card = address && embedCard(address, previews);
      if (!card) continue;
      const block = new state.Token("html_block", "", 0);
      block.content = card;
      block.map = open.map;
      tokens.splice(index, 3, block);
    }
  });
}

/** Every URL standing alone on its line in a Markdown text: the ones worth a preview. */
export function bareUrls(md: MarkdownIt, source: string): string[] {
  const found = new Set<string>();
  const tokens = md.parse(source, {});
  for (let index = 0; index + 2 < tokens.length; index += 1) {
    if (tokens[index]!.type !== "paragraph_open" || tokens[index]!.level !== 0) continue;
    const address = bareUrl(tokens[index + 1]!.children);
    if (address && !videoPlayer(address)) found.add(address);
  }
  return [...found];
}
