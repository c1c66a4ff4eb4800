// How the blog reads another site's page or posts to its endpoint on a writer's or a stranger's
// behalf: never inside its own network (server/kernel/public-address.ts), every redirect checked
// again, within a size and a time.
import { refuseAddress } from "../kernel/public-address.ts";

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

async function checkAddress(url: string, limits: FetchLimits): Promise<void> {
  if (limits.allowPrivateAddress) {
    const protocol = new URL(url).protocol;
    if (protocol !== "http:" && protocol !== "https:") throw new FetchRefusedError(`${protocol} is not http(s)`, true);
    return;
  }
  const refusal = await refuseAddress(url);
  if (refusal !== undefined) throw new FetchRefusedError(`${url} was not fetched: ${refusal}`, true);
}

async function readCut(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes));
}

/**
 * GETs a page, or POSTs a form (`form`) without following redirects' change of method, checking
 * each address before it is asked. A redirect without a usable Location ends the chain as it is.
 */
export async function fetchPage(
  address: string,
  limits: FetchLimits,
  form?: Record<string, string>,
): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = address;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    await checkAddress(url, limits);
    let response: Response;
    try {
      response = await fetch(url, {
        method: form ? "POST" : "GET",
        redirect: "manual",
        signal,
        headers: {
          "user-agent": USER_AGENT,
          accept: form ? "*/*" : "text/html, application/xhtml+xml;q=0.9, */*;q=0.1",
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
    } catch (error) {
      throw new FetchRefusedError(`${url} could not be reached: ${(error as Error).message}`, false);
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location && !form) {
      await response.body?.cancel().catch(() => {});
      url = new URL(location, url).href;
      continue;
    }
    return { url, status: response.status, headers: response.headers, body: await readCut(response, limits.maxBytes) };
  }
  throw new FetchRefusedError(`${address} redirected more than ${MAX_REDIRECTS} times`, true);
}
