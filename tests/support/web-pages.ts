import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A page a test serves: its status, headers and body (a function reads the request's address). */
export interface FixturePage {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string;
}

export interface ReceivedPost {
  path: string;
  form: Record<string, string>;
}

export interface WebPages {
  /** `http://127.0.0.1:{port}`, or the same port under another host name (`localhost`). */
  origin: string;
  url(path: string, host?: string): string;
  /** Serves `page` at `path` (a path with its query) from now on; replaces what was there. */
  serve(path: string, page: FixturePage): void;
  /** Every POST this server was sent, in order of arrival: the Webmentions sent to its endpoints. */
  posts: ReceivedPost[];
  /** Every GET this server was asked, by path, in order of arrival. */
  fetches: string[];
  /** Every answer waits this long first, so work on it is long enough to be cut in the middle. */
  delayMs: number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * Other sites' pages for Webmention tests, on 127.0.0.1: fixture pages served at fixed paths,
 * and every POST recorded and answered 202, as a Webmention endpoint does.
 */
export async function startWebPages(): Promise<WebPages> {
  const pages = new Map<string, FixturePage>();
  const posts: ReceivedPost[] = [];
  const fetches: string[] = [];
  // Each request is recorded as it arrives, before its answer waits `delayMs`: a request cut off in
  // the middle (its sender killed) still counts as made.
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? "/";
    const wait = () => new Promise((resolve) => setTimeout(resolve, pagesServer.delayMs));
    if (req.method === "POST") {
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      posts.push({ path, form });
      await wait();
      res.writeHead(202, { "content-type": "text/plain" }).end("Accepted");
      return;
    }
    fetches.push(path);
    await wait();
    const page = pages.get(path);
    if (!page) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    res.writeHead(page.status ?? 200, { "content-type": "text/html; charset=utf-8", ...page.headers });
    res.end(page.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const pagesServer: WebPages = {
    delayMs: 0,
    origin,
    url: (path, host = "127.0.0.1") => `http://${host}:${port}${path}`,
    serve: (path, page) => void pages.set(path, page),
    posts,
    fetches,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return pagesServer;
}
