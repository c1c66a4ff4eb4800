// How the blog reads another page's Open Graph tags for a bookmark card: a GET never inside the
// blog's own network (server/kernel/public-address.ts, the address checked where it is connected
// to, so DNS rebinding gains nothing; each redirect checked again), within a time and a size.
import type { IncomingMessage } from "node:http";
import { Parser } from "htmlparser2";
import { PublicRequestError, readAtMost, requestPublic } from "../kernel/public-request.ts";

export interface FetchLimits {
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS (test servers on 127.0.0.1): private addresses are allowed. Never on by default. */
  allowPrivateAddress: boolean;
  /** Bytes of a page read at most: the head, where the tags are, comes first. */
  maxBytes: number;
  /** The whole exchange, redirects included. */
  timeoutMs: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { allowPrivateAddress: false, maxBytes: 512_000, timeoutMs: 5_000 };
const MAX_REDIRECTS = 3;
/** Characters kept of each field: a card is a few lines, not a copy of the page. */
const FIELD_MAX = { title: 200, description: 300, siteName: 100 };

/** What a card shows, as plain text (escaped when rendered). */
export interface OpenGraph {
  title: string;
  description: string;
  siteName: string;
}

/** Why there is no card, in plain words. */
export class PreviewFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PreviewFailedError";
  }
}

function tidy(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The Open Graph title, description and site name of a page, falling back on <title> and the description meta. */
export function readOpenGraph(html: string): OpenGraph {
  const meta = new Map<string, string>();
  let title = "";
  let inTitle = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "title") inTitle = true;
        const key = (attributes.property ?? attributes.name ?? "").toLowerCase();
        if (name === "meta" && key && attributes.content !== undefined && !meta.has(key))
          meta.set(key, attributes.content);
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return {
    title: tidy(meta.get("og:title") ?? meta.get("twitter:title") ?? title, FIELD_MAX.title),
    description: tidy(meta.get("og:description") ?? meta.get("description") ?? "", FIELD_MAX.description),
    siteName: tidy(meta.get("og:site_name") ?? "", FIELD_MAX.siteName),
  };
}

async function get(url: string, limits: FetchLimits, signal: AbortSignal): Promise<IncomingMessage> {
  try {
    return await requestPublic(url, {
      headers: { "user-agent": "Inkwell link preview", accept: "text/html, application/xhtml+xml;q=0.9" },
      allowPrivateAddress: limits.allowPrivateAddress,
      signal,
    });
  } catch (error) {
    throw previewFailure(url, error, limits);
  }
}

function previewFailure(url: string, error: unknown, limits: FetchLimits): PreviewFailedError {
  if (!(error instanceof PublicRequestError)) throw error;
  if (error.failure === "refused") return new PreviewFailedError(`${url} was not fetched: ${error.message}`);
  if (error.failure === "timeout") {
    return new PreviewFailedError(`${url} gave no answer within ${limits.timeoutMs / 1000} seconds`);
  }
  return new PreviewFailedError(`${url} could not be reached (${error.message})`);
}

/** Fetches `address` (following at most a few redirects) and reads its Open Graph tags; throws PreviewFailedError. */
export async function fetchOpenGraph(address: string, limits: FetchLimits): Promise<OpenGraph> {
  if (!URL.canParse(address)) throw new PreviewFailedError(`${address} is not a URL`);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = address;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    const response = await get(url, limits, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      url = new URL(location, url).href;
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw new PreviewFailedError(`${url} answered ${status}`);
    }
    if (!/html/i.test(response.headers["content-type"] ?? "")) {
      response.destroy();
      throw new PreviewFailedError(`${url} is not an HTML page`);
    }
    const page = await readAtMost(response, limits.maxBytes).catch((error: unknown) => {
      throw previewFailure(url, error, limits);
    });
    const graph = readOpenGraph(page.toString("utf8"));
    if (!graph.title) throw new PreviewFailedError(`${url} has no title`);
    return graph;
  }
  throw new PreviewFailedError(`${address} redirected more than ${MAX_REDIRECTS} times`);
}
