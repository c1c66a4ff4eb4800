import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Webmention from "@remy/webmention";
import { expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import { createServices } from "../../server/composition.ts";
import { buildPostInput } from "../support/factories.ts";
import { startWebPages, type WebPages } from "../support/web-pages.ts";
import {
  findFreePort,
  type StartedServer,
  startServer,
  waitForOutput,
  withScratchPostgresDatabase,
} from "./server-support.ts";

// Webmention with the built server (issue 38, "Targets"): an independent sender from the npm
// registry (@remy/webmention) finds the endpoint on a rendered post page and sends a like and a
// reply, which the blog verifies; and the queue both ways survives kill -9, repeating at most what
// the dead server had claimed. Other sites' pages are served on 127.0.0.1 (tests/support/web-pages.ts),
// which the blog fetches only because these servers turn FEDIVERSE_ALLOW_PRIVATE_ADDRESS on.
// Why it holds: docs/decisions/0026-webmention.md.

const SECRET = "webmention test secret, thirty-two characters or more";
const MENTIONS = 10;

function startBlog(databaseUrl: string, port: number): StartedServer {
  return startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: SECRET,
    COMMENT_IP_SALT: "webmention test salt, thirty-two characters long",
    FEDIVERSE_ALLOW_PRIVATE_ADDRESS: "true",
  });
}

async function ready(server: StartedServer): Promise<void> {
  try {
    await waitForOutput(server, /Blog ready at http:\/\/127\.0\.0\.1:\d+/);
  } catch (error) {
    server.child.kill("SIGKILL");
    throw error;
  }
}

async function openTarget(databaseUrl: string): Promise<DatabaseHandle> {
  return databaseUrl.startsWith("file:")
    ? openDatabase({ dialect: "sqlite", filename: databaseUrl.slice("file:".length) })
    : openDatabase({ dialect: "postgres", connectionString: databaseUrl });
}

/** The services over the server's database, as another app server (or the editor) would use them. */
function servicesOf(handle: DatabaseHandle, siteUrl: string) {
  return createServices({
    db: handle.db,
    dialect: handle.dialect,
    commentIpSalt: "unused",
    sessionSecret: SECRET,
    siteUrl,
  });
}

async function withSqliteFile(run: (url: string) => Promise<void>): Promise<void> {
  const directory = mkdtempSync(path.join(tmpdir(), "blog-webmention-"));
  try {
    await run(`file:${path.join(directory, "blog.sqlite")}`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const DATABASES = [
  { label: "SQLite", run: withSqliteFile },
  {
    label: "PostgreSQL",
    run: (run: (url: string) => Promise<void>) => withScratchPostgresDatabase("blog_webmention", run),
  },
];

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function claimedJobs(handle: DatabaseHandle): Promise<number> {
  const row = await handle.db
    .selectFrom("webmention_jobs")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("state", "=", "claimed")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function unfinishedJobs(handle: DatabaseHandle): Promise<number> {
  const row = await handle.db
    .selectFrom("webmention_jobs")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("state", "in", ["queued", "claimed"])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many requests went to each path more than once: what a restart repeated. */
function repeats(paths: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const path of paths) counts.set(path, (counts.get(path) ?? 0) + 1);
  return [...counts.values()].reduce((sum, count) => sum + count - 1, 0);
}

async function withBlog(
  databaseUrl: string,
  run: (blog: {
    server: StartedServer;
    handle: DatabaseHandle;
    siteUrl: string;
    port: number;
    web: WebPages;
  }) => Promise<void>,
): Promise<void> {
  const web = await startWebPages();
  const port = await findFreePort();
  const server = startBlog(databaseUrl, port);
  let handle: DatabaseHandle | undefined;
  try {
    await ready(server);
    handle = await openTarget(databaseUrl);
    await run({ server, handle, siteUrl: `http://127.0.0.1:${port}`, port, web });
  } finally {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGTERM");
      await server.exit;
    }
    await handle?.close();
    await web.close();
  }
}

test.describe("Webmention with the built server", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });

  for (const database of DATABASES) {
    test(`on ${database.label}: an independent sender finds the endpoint on a post page; its like and reply are verified`, async () => {
      await database.run((url) =>
        withBlog(url, async ({ handle, siteUrl, web }) => {
          const services = servicesOf(handle, siteUrl);
          const post = await services.posts.createPost(buildPostInput({ title: "Mentioned elsewhere" }));
          const target = `${siteUrl}/blog/${post.slug}`;
          const page = await fetch(target);
          expect(page.headers.get("link")).toBe('</webmention>; rel="webmention"');
          expect(await page.text()).toContain('<link rel="webmention" href="/webmention"/>');

          // On "localhost", so the sender does not take the blog (127.0.0.1) for the page's own site.
          const like = web.url("/likes/1", "localhost");
          const reply = web.url("/replies/1", "localhost");
          // @remy/webmention reads the links inside an entry's content (e-content).
          web.serve("/likes/1", {
            body: `<div class="h-entry"><a class="u-url" href="${like}">#</a>
              <a class="p-author h-card" href="${web.url("/bob", "localhost")}">Bob</a>
              <p class="e-content">Liked <a class="u-like-of" href="${target}">a post</a></p></div>`,
          });
          web.serve("/replies/1", {
            body: `<div class="h-entry"><a class="u-url" href="${reply}">#</a>
              <a class="p-author h-card" href="${web.url("/carol", "localhost")}">Carol</a>
              <p class="e-content"><a class="u-in-reply-to" href="${target}">Re</a>: well said.</p></div>`,
          });
          for (const source of [like, reply]) {
            const sender = new Webmention({ send: true });
            const sent = new Promise<unknown[]>((resolve, reject) => {
              const results: unknown[] = [];
              sender.on("sent", (result: unknown) => results.push(result));
              sender.on("end", () => resolve(results));
              sender.on("error", reject);
            });
            sender.fetch(source);
            expect(await sent).toMatchObject([{ source, target, status: 202 }]);
          }
          const counts = await until(
            async () => (await services.webmention.countsFor([post.id])).get(post.id)!,
            (value) => value.like === 1 && value.reply === 1,
            30_000,
            "a like and a reply",
          );
          expect(counts).toMatchObject({ like: 1, reply: 1, mention: 0 });
          const held = await services.comments.listForModeration({ status: "pending" });
          expect(held.comments).toMatchObject([{ author: "Carol", content: "Re: well said.", mentionSource: reply }]);
        }),
      );
    });

    test(`on ${database.label}: mentions being verified and sent when the server is killed are all done after a restart, repeated only if claimed`, async () => {
      await database.run((url) =>
        withBlog(url, async ({ server, handle, siteUrl, port, web }) => {
          const services = servicesOf(handle, siteUrl);
          const received = await services.posts.createPost(buildPostInput({ title: "Mentioned often" }));
          const target = `${siteUrl}/blog/${received.slug}`;
          // Ten pages mention that post; ten pages, each with an endpoint, are linked by another.
          const links: string[] = [];
          for (let index = 0; index < MENTIONS; index += 1) {
            web.serve(`/mentions/${index}`, { body: `<p>See <a href="${target}">this</a>.</p>` });
            web.serve(`/linked/${index}`, {
              headers: { link: `</endpoint/${index}>; rel=webmention` },
              body: "<p>Hi</p>",
            });
            links.push(`<a href="${web.url(`/linked/${index}`)}">${index}</a>`);
          }
          web.delayMs = 700;
          for (let index = 0; index < MENTIONS; index += 1) {
            const answer = await fetch(`${siteUrl}/webmention`, {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams({ source: web.url(`/mentions/${index}`), target }),
            });
            expect(answer.status).toBe(202);
          }
          await services.posts.createPost(
            buildPostInput({ title: "Links a lot", content: `<p>${links.join(" ")}</p>` }),
          );

          await until(
            () => Promise.resolve(web.fetches.length),
            (count) => count >= 3,
            30_000,
            "work in flight",
          );
          server.child.kill("SIGKILL");
          await server.exit;
          // What the dead server had taken and not finished: each may be done once more.
          const claimed = await claimedJobs(handle);
          expect(claimed, "the kill landed while jobs were claimed").toBeGreaterThan(0);
          const inFlight = claimed;

          const second = startBlog(url, port);
          try {
            await ready(second);
            web.delayMs = 0;
            // PostgreSQL: the dead server's claims come back when their lease (60 s) runs out.
            await until(
              () => unfinishedJobs(handle),
              (count) => count === 0,
              150_000,
              "an empty queue",
            );
          } finally {
            second.child.kill("SIGTERM");
            await second.exit;
          }
          const counts = (await services.webmention.countsFor([received.id])).get(received.id)!;
          expect(counts.mention).toBe(MENTIONS);
          const endpoints = web.posts.map((post) => post.path);
          expect(new Set(endpoints).size).toBe(MENTIONS);
          const sourceFetches = web.fetches.filter((fetched) => fetched.startsWith("/mentions/"));
          expect(new Set(sourceFetches).size).toBe(MENTIONS);
          const repeated = repeats(endpoints) + repeats(sourceFetches);
          console.log(
            `[webmention durability] ${database.label}: ${inFlight} claimed at the kill, ${repeated} repeated`,
          );
          expect(repeated).toBeLessThanOrEqual(inFlight);
        }),
      );
    });
  }
});
