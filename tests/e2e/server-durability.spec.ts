import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { type StartedServer, startServer, waitForOutput, withScratchPostgresDatabase } from "./server-support.ts";

// Proof that an acknowledged comment survives the server being killed: 40 visitors post
// comments to the real production server, which is SIGKILLed mid-load and started again.
// Why SQLite holds (and what would not): docs/decisions/0009-durability-and-portability.md.

const CLIENTS = 40;
/** Kill once this many comments were acknowledged, so the kill lands while requests are in flight. */
const KILL_AFTER_ACKNOWLEDGED = 200;
const LOAD_DEADLINE_MS = 30_000;

/** The production server on a port it chooses (port 0), so parallel runs never collide. */
async function startOnAnyPort(databaseUrl: string): Promise<{ server: StartedServer; port: number }> {
  const server = startServer({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: "1",
    SESSION_SECRET: "durability test secret, thirty-two characters or more",
    COMMENT_IP_SALT: "durability test salt, thirty-two characters or more",
  });
  try {
    const [, port] = await waitForOutput(server, /Blog ready at http:\/\/127\.0\.0\.1:(\d+)/);
    return { server, port: Number(port) };
  } catch (error) {
    server.child.kill("SIGKILL");
    throw error;
  }
}

async function findPublishedPost(port: number): Promise<string> {
  const html = await (await fetch(`http://127.0.0.1:${port}/blog`)).text();
  const id = html.match(/href="\/blog\/([A-Za-z0-9_-]+)"/)?.[1];
  if (!id) throw new Error("the demo blog lists no published post");
  return id;
}

interface LoadResult {
  acknowledged: Map<string, string>;
  attempted: number;
}

/** 40 clients, each request from its own address with its own text, until the server dies or the deadline. */
async function postCommentsUntilKilled(port: number, postId: string, server: StartedServer): Promise<LoadResult> {
  const acknowledged = new Map<string, string>();
  let attempted = 0;
  let killed = false;
  const deadline = Date.now() + LOAD_DEADLINE_MS;
  const client = async (clientIndex: number) => {
    for (let request = 0; !killed && Date.now() < deadline; request += 1) {
      attempted += 1;
      const content = `Durability comment ${clientIndex}-${request}`;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/blog/${postId}`, {
          method: "POST",
          redirect: "manual",
          signal: AbortSignal.timeout(20_000),
          headers: {
            Origin: `http://127.0.0.1:${port}`,
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Forwarded-For": `10.${clientIndex}.${Math.floor(request / 250)}.${(request % 250) + 1}`,
          },
          body: new URLSearchParams({ author: `Visitor ${clientIndex}`, content }),
        });
        const commentId = response.headers.get("location")?.match(/#comment-(.+)$/)?.[1];
        if (response.status === 303 && commentId) acknowledged.set(commentId, content);
        else if (!killed) throw new Error(`comment refused with ${response.status}`);
      } catch (error) {
        if (killed) return;
        throw error;
      }
      if (acknowledged.size >= KILL_AFTER_ACKNOWLEDGED && !killed) {
        killed = true;
        server.child.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index + 1)));
  await server.exit;
  return { acknowledged, attempted };
}

async function storedComments(databaseUrl: string, ids: string[]): Promise<Map<string, string>> {
  if (databaseUrl.startsWith("file:")) {
    const database = new SqliteDatabase(databaseUrl.slice("file:".length), { readonly: true });
    try {
      const rows = database.prepare("select id, content from comments").all() as { id: string; content: string }[];
      return new Map(rows.filter((row) => ids.includes(row.id)).map((row) => [row.id, row.content]));
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; content: string }>("select id, content from comments");
    return new Map(rows.filter((row) => ids.includes(row.id)).map((row) => [row.id, row.content]));
  } finally {
    await client.end();
  }
}

async function runCrashTest(databaseUrl: string, label: string): Promise<void> {
  const { server: first, port } = await startOnAnyPort(databaseUrl);
  const postId = await findPublishedPost(port);
  const { acknowledged, attempted } = await postCommentsUntilKilled(port, postId, first);
  expect(acknowledged.size, "the load reached the kill point").toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);

  const { server: second, port: restartedPort } = await startOnAnyPort(databaseUrl);
  try {
    expect((await fetch(`http://127.0.0.1:${restartedPort}/healthz`)).status).toBe(200);
    const stored = await storedComments(databaseUrl, [...acknowledged.keys()]);
    const lost = [...acknowledged].filter(([id, content]) => stored.get(id) !== content);
    console.log(
      `[durability] ${label}: ${attempted} requests, ${acknowledged.size} acknowledged, ${lost.length} lost after SIGKILL`,
    );
    expect(lost).toEqual([]);
  } finally {
    second.child.kill("SIGTERM");
    await second.exit;
  }
}

test.describe("comments survive a killed server", () => {
  // One at a time: two loads of 40 clients on a shared 2-core machine would measure each other.
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  test("on SQLite (WAL)", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "blog-durability-"));
    const file = path.join(directory, "blog.sqlite");
    try {
      await runCrashTest(`file:${file}`, "SQLite");
      const database = new SqliteDatabase(file, { readonly: true });
      // WAL is what lets 40 writers wait their turn instead of failing with SQLITE_BUSY.
      expect(database.pragma("journal_mode", { simple: true })).toBe("wal");
      database.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test("on PostgreSQL", async () => {
    await withScratchPostgresDatabase("blog_durability", (url) => runCrashTest(url, "PostgreSQL"));
  });
});
