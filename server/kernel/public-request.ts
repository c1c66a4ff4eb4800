// The one way the blog sends a request on someone's behalf (a webhook's call, a link preview, a
// Webmention's source and endpoint): only to a public address, checked on the address actually
// connected to (public-address.ts, `publicOnlyLookup`), so a name that answers a public address
// to a check and a private one to the connection (DNS rebinding) gains nothing.
import { type IncomingMessage, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { publicOnlyLookup, refuseAddressForm } from "./public-address.ts";

/** Why a request was not answered: refused by the blog, no answer in time, or the other side unreachable. */
export type PublicRequestFailure = "refused" | "timeout" | "unreachable";

export class PublicRequestError extends Error {
  readonly failure: PublicRequestFailure;
  constructor(message: string, failure: PublicRequestFailure) {
    super(message);
    this.name = "PublicRequestError";
    this.failure = failure;
  }
}

export interface PublicRequest {
  method?: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS: test servers on 127.0.0.1 may be reached. Never on by default. */
  allowPrivateAddress: boolean;
  /** Ends the whole exchange, its redirects and the reading of its body included. */
  signal: AbortSignal;
}

function refusal(url: string, allowPrivateAddress: boolean): string | undefined {
  if (!allowPrivateAddress) return refuseAddressForm(url);
  if (!URL.canParse(url)) return "it is not a URL";
  const { protocol } = new URL(url);
  return protocol === "http:" || protocol === "https:" ? undefined : `${protocol} is not http(s)`;
}

function failureOf(error: NodeJS.ErrnoException): PublicRequestError {
  if (error instanceof PublicRequestError) return error;
  if (error.code === "EPRIVATEADDRESS") return new PublicRequestError(error.message, "refused");
  if (error.name === "AbortError" || error.name === "TimeoutError") {
    return new PublicRequestError("no answer in time", "timeout");
  }
  return new PublicRequestError(error.code ?? error.message, "unreachable");
}

/** Sends one request (no redirect followed) and answers the response, its body not yet read. */
export function requestPublic(url: string, options: PublicRequest): Promise<IncomingMessage> {
  const refused = refusal(url, options.allowPrivateAddress);
  if (refused !== undefined) return Promise.reject(new PublicRequestError(refused, "refused"));
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const { body } = options;
  return new Promise((resolve, reject) => {
    const outgoing = send(target, {
      method: options.method ?? "GET",
      headers: body === undefined ? options.headers : { ...options.headers, "content-length": Buffer.byteLength(body) },
      ...(options.allowPrivateAddress ? {} : { lookup: publicOnlyLookup() }),
      signal: options.signal,
    });
    outgoing.on("response", resolve);
    outgoing.on("error", (error: NodeJS.ErrnoException) => reject(failureOf(error)));
    outgoing.end(body);
  });
}

/** At most `maxBytes` of a response's body; the rest is not read. */
export async function readAtMost(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) break;
    }
  } catch (error) {
    throw failureOf(error as NodeJS.ErrnoException);
  } finally {
    response.destroy();
  }
  return Buffer.concat(chunks).subarray(0, maxBytes);
}

/** A response's headers as the web's `Headers`, a repeated one (Link) appended. */
export function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}
