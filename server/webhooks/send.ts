// How a webhook's call leaves the blog: one POST, never inside the blog's own network
// (server/kernel/public-address.ts, the address checked where it is connected to), no redirect
// followed, within a time, and only a short excerpt of the answer read.
import { createHmac } from "node:crypto";
import { PublicRequestError, readAtMost, requestPublic } from "../kernel/public-request.ts";

/** Characters of the receiver's answer kept: enough to say what it said, nothing it could fill the database with. */
export const EXCERPT_MAX = 200;
const USER_AGENT = "Inkwell webhooks";

export interface CallLimits {
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS (test servers on 127.0.0.1): private addresses are allowed. Never on by default. */
  allowPrivateAddress: boolean;
  /** The whole call, from connecting to the answer's first bytes read. */
  timeoutMs: number;
}

/** What the receiver answered: its status and the first characters of its body. */
export interface CallAnswer {
  status: number;
  excerpt: string;
}

/** A call the blog refused to make, or that could not be made; `permanent` when trying again cannot help. */
export class CallFailedError extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.name = "CallFailedError";
    this.permanent = permanent;
  }
}

/**
 * The signature headers: `X-Inkwell-Timestamp` (Unix seconds) and `X-Inkwell-Signature`,
 * `sha256=` and the hex HMAC-SHA256 of `{timestamp}.{body}` under the webhook's secret, so a
 * receiver checks both that the blog sent the body and that it was sent just now.
 */
export function signatureHeaders(secret: string, body: string, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { "x-inkwell-timestamp": timestamp, "x-inkwell-signature": `sha256=${signature}` };
}

/** POSTs `body` as JSON to `url` with `headers`; throws CallFailedError when no answer came. */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  limits: CallLimits,
): Promise<CallAnswer> {
  let response;
  try {
    response = await requestPublic(url, {
      method: "POST",
      headers: { ...headers, "user-agent": USER_AGENT, "content-type": "application/json" },
      body,
      allowPrivateAddress: limits.allowPrivateAddress,
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
  } catch (error) {
    if (!(error instanceof PublicRequestError)) throw error;
    if (error.failure === "refused") throw new CallFailedError(`the URL cannot be called: ${error.message}`, true);
    if (error.failure === "timeout") {
      throw new CallFailedError(`no answer within ${limits.timeoutMs / 1000} seconds`, false);
    }
    throw new CallFailedError(`the receiver could not be reached (${error.message})`, false);
  }
  // Bytes, not characters: four per character at most, then the rest is not read. An answer cut
  // short still has its status, which is what a delivery is judged by.
  const answer = await readAtMost(response, EXCERPT_MAX * 4).catch(() => Buffer.alloc(0));
  return { status: response.statusCode ?? 0, excerpt: answer.toString("utf8").slice(0, EXCERPT_MAX) };
}
