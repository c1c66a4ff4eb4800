// A real HTTP receiver of webhook calls on 127.0.0.1 (tests/integration/webhooks.test.ts): it
// checks each call's signature as a receiver would, with the secret the blog showed once, and
// answers what the test tells it to. The blog calls it only because the test services turn
// FEDIVERSE_ALLOW_PRIVATE_ADDRESS on, the seam the Webmention and fediverse tests use.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedCall {
  event: string | undefined;
  body: { id: string; event: string; createdAt: string; data: Record<string, unknown> };
  /** The signature checked out against the secret the test gave for this path. */
  signed: boolean;
}

/** Verifies `X-Inkwell-Signature` over `{timestamp}.{body}`, within five minutes of now, as the README shows. */
export function verifySignature(secret: string, headers: IncomingMessage["headers"], raw: string): boolean {
  const timestamp = String(headers["x-inkwell-timestamp"] ?? "");
  const signature = String(headers["x-inkwell-signature"] ?? "");
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${raw}`).digest("hex")}`;
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

export async function startWebhookReceiver() {
  const calls: ReceivedCall[] = [];
  const secrets = new Map<string, string>();
  /** What the receiver does with the next calls; answering 200 unless told otherwise. */
  let answer: (response: ServerResponse) => void = (response) => response.end("ok");
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const secret = secrets.get(request.url ?? "");
      calls.push({
        event: request.headers["x-inkwell-event"] as string | undefined,
        body: JSON.parse(raw) as ReceivedCall["body"],
        signed: secret !== undefined && verifySignature(secret, request.headers, raw),
      });
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    calls,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** The secret the blog showed for the webhook at `path`, with which its calls are checked. */
    trust(path: string, secret: string) {
      secrets.set(path, secret);
    },
    answerWith(next: (response: ServerResponse) => void) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
