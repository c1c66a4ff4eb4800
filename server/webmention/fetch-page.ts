// How the blog reads another site's page or posts to its endpoint on a writer's or a stranger's
// behalf: never inside its own network (server/kernel/public-request.ts), every redirect checked
// again, within a size and a time.
import { headersOf, PublicRequestError, readAtMost, requestPublic } from "../kernel/public-request.ts";

export interface FetchLimits {
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS (test servers on 127.0.0.1): private addresses are allowed. Never on by default. */
  allowPrivateAddress: boolean;
  /** Bytes of a body read at most; the rest is not read. */
  maxBytes: number;
  /** The whole exchange, redirects included. */
  timeoutMs: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { allowPrivateAddress: false, maxBytes: 1_000_000, timeoutMs: 10_000 };

const MAX_REDIRECTS = 5;
const USER_AGENT = "Inkwell Webmention (+https://www.w3.org/TR/webmention/)";

/** A page as fetched: where it ended after redirects, its status, headers and (cut) body. */
export interface FetchedPage {
  url: string;
  status: number;
  headers: Headers;
  body: string;
}

/** A fetch the blog refused to make (a private address) or that could not be made; `permanent` when trying again cannot help. */
export class FetchRefusedError extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.name = "FetchRefusedError";
    this.permanent = permanent;
  }
}

/**
 * GETs a page, or POSTs a form (`form`) without following redirects' change of method, each
 * address refused or allowed where it is connected to (server/kernel/public-request.ts). A
 * redirect without a usable Location ends the chain as it is.
 */
export async function fetchPage(
  address: string,
  limits: FetchLimits,
  form?: Record<string, string>,
): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = address;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    try {
      const response = await requestPublic(url, {
        method: form ? "POST" : "GET",
        headers: {
          "user-agent": USER_AGENT,
          accept: form ? "*/*" : "text/html, application/xhtml+xml;q=0.9, */*;q=0.1",
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
        allowPrivateAddress: limits.allowPrivateAddress,
        signal,
      });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location && !form) {
        response.destroy();
        url = new URL(location, url).href;
        continue;
      }
      const headers = headersOf(response);
      const body = (await readAtMost(response, limits.maxBytes)).toString("utf8");
      return { url, status, headers, body };
    } catch (error) {
      if (!(error instanceof PublicRequestError)) throw error;
      if (error.failure === "refused") throw new FetchRefusedError(`${url} was not fetched: ${error.message}`, true);
      throw new FetchRefusedError(`${url} could not be reached: ${error.message}`, false);
    }
  }
  throw new FetchRefusedError(`${address} redirected more than ${MAX_REDIRECTS} times`, true);
}
