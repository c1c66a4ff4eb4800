// Embeds' previews (docs/decisions/0032-visual-editor.md "Embeds"): fetched when a post is saved
// or when the writer pastes a URL in the editor, never while a reader waits; stored, so each
// URL is fetched once (a failed one again after a day).
import type { Kysely } from "kysely";
import type { Database } from "../kernel/db/schema.ts";
import type { RateLimiter, RateLimitPolicy } from "../kernel/rate-limit.ts";
import { type LinkPreview, type LinkPreviews, linksToPreview, renderPostBody } from "../render/index.ts";
import { DEFAULT_FETCH_LIMITS, fetchOpenGraph, type FetchLimits } from "./open-graph.ts";
import { findPreviews, savePreview } from "./repositories/link-previews.ts";

/** URLs fetched at most per save: a post of a hundred bare links does not hold a save for minutes. */
const MAX_FETCHES_PER_SAVE = 10;
const RETRY_FAILED_AFTER_MS = 24 * 60 * 60 * 1000;
/** Cards a writer may ask for as they paste: far more than anyone pastes, far fewer than a script. */
export const CARDS_PER_WRITER: RateLimitPolicy = { maxHits: 60, windowMs: 60_000 };

export interface EmbedsServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  limiter: RateLimiter;
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS: test servers on 127.0.0.1 may be fetched. Never on by default. */
  allowPrivateAddress: boolean;
  limits?: Partial<Omit<FetchLimits, "allowPrivateAddress">>;
}

export function createEmbedsService({ db, now, limiter, allowPrivateAddress, limits = {} }: EmbedsServiceDeps) {
  const fetchLimits: FetchLimits = { ...DEFAULT_FETCH_LIMITS, ...limits, allowPrivateAddress };

  async function fetchAndStore(url: string): Promise<LinkPreview | undefined> {
    const at = now().toISOString();
    try {
      const graph = await fetchOpenGraph(url, fetchLimits);
      await savePreview(db, url, { preview: graph }, at);
      return { url, ...graph };
    } catch (error) {
      await savePreview(db, url, { failure: (error as Error).message }, at);
      return undefined;
    }
  }

  async function previewsFor(urls: readonly string[], fetchMissing = true): Promise<LinkPreviews> {
    const stored = await findPreviews(db, urls);
    const previews = new Map<string, LinkPreview>();
    const due: string[] = [];
    for (const url of urls) {
      const row = stored.get(url);
      if (row?.preview) previews.set(url, row.preview);
      else if (!row || now().getTime() - Date.parse(row.fetchedAt) > RETRY_FAILED_AFTER_MS) due.push(url);
    }
    if (!fetchMissing) return previews;
    const fetched = await Promise.all(due.slice(0, MAX_FETCHES_PER_SAVE).map(fetchAndStore));
    for (const preview of fetched) if (preview) previews.set(preview.url, preview);
    return previews;
  }

  return {
    /**
     * The previews of `urls` for a render: the stored ones, and, with `fetchMissing`, those never
     * fetched (or failed more than a day ago) fetched now and stored. A URL without one stays a
     * plain link.
     */
    previewsFor,
    /**
     * The card a URL alone on its line becomes, through the renderer and sanitiser a save uses
     * (its preview fetched and stored when missing); undefined when it stays a plain link.
     * Counted per writer (CARDS_PER_WRITER): each may make the blog fetch a page.
     */
    async card(url: string, writerId: string): Promise<string | undefined> {
      await limiter.consume(`link-preview:${writerId}`, CARDS_PER_WRITER);
      const html = renderPostBody("markdown", url, await previewsFor(linksToPreview("markdown", url))).html;
      return /^<p class="embed-/.test(html) ? html : undefined;
    },
  };
}

export type EmbedsService = ReturnType<typeof createEmbedsService>;
