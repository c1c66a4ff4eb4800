import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { createCookie } from "react-router";
import { PUBLIC_CACHE_CONTROL } from "../../server/kernel/page-cache.ts";
import { SESSION_COOKIE_NAME } from "../../server/kernel/session-cookie.ts";
import { findFreePort, type StartedServer, startServer } from "./server-support.ts";

// The page cache never shows a page older than the last write: on one server after every kind
// of write, and across two servers on one PostgreSQL database (LISTEN/NOTIFY, decision 0005).
// Signed-in admins neither read cached pages nor leave theirs in the cache.

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const ADMIN = { email: "cache-admin@example.com", password: "page cache test password" };
/** How soon another server must serve the new page after the write. */
const CROSS_SERVER_BOUND_MS = 1_000;
const ADMIN_MARKER = "Admin Dashboard";

interface Blog {
  url: string;
  server: StartedServer;
}

async function startBlog(databaseUrl: string): Promise<Blog> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: url,
    DATABASE_URL: databaseUrl,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SESSION_SECRET: "page cache test secret, thirty-two characters or more",
    COMMENT_IP_SALT: "page cache test salt, thirty-two characters or more",
    LOG_LEVEL: "warn",
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, server };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.child.kill("SIGKILL");
  throw new Error(`the server did not start in 60 s:\n${server.output()}`);
}

async function stopBlog(blog: Blog | undefined): Promise<void> {
  if (!blog || blog.server.child.exitCode !== null) return;
  blog.server.child.kill("SIGTERM");
  await blog.server.exit;
}

/** Database URL and cleanup for a fresh, empty database of the dialect; the servers migrate it. */
async function createDatabase(dialect: "sqlite" | "postgres"): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === "sqlite") {
    const directory = mkdtempSync(path.join(tmpdir(), "blog-page-cache-"));
    return {
      url: `file:${directory}/blog.sqlite`,
      drop: async () => rmSync(directory, { recursive: true, force: true }),
    };
  }
  const name = `blog_page_cache_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

async function read(
  blog: Blog,
  pathname: string,
  cookie?: string,
): Promise<{ status: number; html: string; cacheControl: string; setCookie: string }> {
  const response = await fetch(`${blog.url}${pathname}`, { headers: cookie ? { Cookie: cookie } : {} });
  return {
    status: response.status,
    html: await response.text(),
    cacheControl: response.headers.get("cache-control") ?? "",
    setCookie: response.headers.get("set-cookie") ?? "",
  };
}

/** Reads a page as a visitor twice, so the second answer comes from (and proves) the cache. */
async function readCached(blog: Blog, pathname: string): Promise<string> {
  await read(blog, pathname);
  const page = await read(blog, pathname);
  expect(page.cacheControl, `${pathname} is cacheable`).toContain("public");
  return page.html;
}

async function post(
  blog: Blog,
  pathname: string,
  fields: Record<string, string | string[]>,
  cookie?: string,
): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return fetch(`${blog.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: blog.url,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body,
  });
}

async function signIn(blog: Blog): Promise<string> {
  const response = await post(blog, "/login", { email: ADMIN.email, password: ADMIN.password, redirectTo: "/admin" });
  expect(response.status, "sign-in redirects").toBe(302);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

function postFields(title: string, published: boolean): Record<string, string> {
  return {
    title,
    content: `<p>Body of ${title}</p>`,
    excerpt: `Excerpt of ${title}`,
    author: "Cache Tester",
    coverImage: "https://images.example.com/cover.jpg",
    category: "Design",
    newTags: "cache",
    ...(published ? { published: "on" } : {}),
  };
}

async function expectRedirect(response: Promise<Response>): Promise<void> {
  expect([302, 303]).toContain((await response).status);
}

async function createPost(blog: Blog, cookie: string, title: string): Promise<string> {
  await expectRedirect(post(blog, "/admin/posts/new", postFields(title, true), cookie));
  const list = await read(blog, `/admin/posts?${new URLSearchParams({ q: title })}`, cookie);
  const id = list.html.match(/\/admin\/posts\/edit\/([A-Za-z0-9_-]+)/)?.[1];
  if (!id) throw new Error(`the admin list does not show "${title}"`);
  return id;
}

function unique(label: string): string {
  return `${label} ${randomBytes(4).toString("hex")}`;
}

for (const dialect of ["sqlite", "postgres"] as const) {
  test.describe(`page cache on ${dialect}`, () => {
    let database: Awaited<ReturnType<typeof createDatabase>>;
    let blog: Blog | undefined;
    test.beforeAll(async () => {
      test.setTimeout(90_000);
      database = await createDatabase(dialect);
      blog = await startBlog(database.url);
    });
    test.afterAll(async () => {
      await stopBlog(blog);
      await database?.drop();
    });

    test("no public page is stale after any kind of write", async () => {
      test.setTimeout(60_000);
      const site = blog!;
      const cookie = await signIn(site);

      const title = unique("Cache create");
      await readCached(site, "/");
      await readCached(site, "/blog");
      await readCached(site, "/category/design");
      const id = await createPost(site, cookie, title);
      expect((await read(site, "/")).html, "create: home").toContain(title);
      expect((await read(site, "/blog")).html, "create: blog").toContain(title);
      expect((await read(site, "/category/design")).html, "create: category").toContain(title);

      const edited = unique("Cache edit");
      await readCached(site, `/blog/${id}`);
      await expectRedirect(post(site, `/admin/posts/edit/${id}`, postFields(edited, true), cookie));
      expect((await read(site, `/blog/${id}`)).html, "edit: post page").toContain(edited);
      expect((await read(site, "/blog")).html, "edit: blog").toContain(edited);

      await readCached(site, `/blog/${id}`);
      await readCached(site, "/blog");
      await expectRedirect(post(site, `/admin/posts/edit/${id}`, postFields(edited, false), cookie));
      expect((await read(site, `/blog/${id}`)).status, "unpublish: post page").toBe(404);
      expect((await read(site, "/blog")).html, "unpublish: blog").not.toContain(edited);

      await readCached(site, "/blog");
      await readCached(site, "/category/design");
      await expectRedirect(post(site, `/admin/posts/edit/${id}`, postFields(edited, true), cookie));
      expect((await read(site, `/blog/${id}`)).status, "publish: post page").toBe(200);
      expect((await read(site, "/blog")).html, "publish: blog").toContain(edited);
      expect((await read(site, "/category/design")).html, "publish: category").toContain(edited);

      const comment = unique("A cached comment");
      await readCached(site, `/blog/${id}`);
      const commented = await post(site, `/blog/${id}`, { author: "Reader", content: comment });
      expect(commented.status, "comment accepted").toBe(303);
      expect((await read(site, `/blog/${id}`)).html, "comment: post page").toContain(comment);

      const commentId = commented.headers.get("location")?.match(/#comment-(.+)$/)?.[1];
      expect(commentId, "the comment's anchor").toBeTruthy();
      await readCached(site, `/blog/${id}`);
      await expectRedirect(post(site, "/admin/comments", { intent: "spam", id: commentId! }, cookie));
      expect((await read(site, `/blog/${id}`)).html, "moderation: post page").not.toContain(comment);

      const siteTitle = unique("Cached Site");
      await readCached(site, "/");
      const saved = await post(
        site,
        "/admin/settings",
        {
          title: siteTitle,
          description: "A blog whose pages are cached",
          aboutUrl: "https://example.com/about",
          sourceUrl: "https://example.com/source",
          postsPerPage: "10",
          timeZone: "UTC",
          footerText: "",
        },
        cookie,
      );
      expect(saved.status, "settings saved").toBe(200);
      expect((await read(site, "/")).html, "settings: home").toContain(siteTitle);

      await readCached(site, "/blog");
      await expectRedirect(post(site, "/admin/posts", { intent: "delete", id }, cookie));
      expect((await read(site, `/blog/${id}`)).status, "delete: post page").toBe(404);
      expect((await read(site, "/blog")).html, "delete: blog").not.toContain(edited);
    });

    test("admins never read a cached page and never leave theirs in the cache", async () => {
      const site = blog!;
      const cookie = await signIn(site);
      const id = await createPost(site, cookie, unique("Cache admin"));

      const visitorFirst = await readCached(site, `/blog/${id}`);
      expect(visitorFirst).not.toContain(ADMIN_MARKER);
      const adminAfter = await read(site, `/blog/${id}`, cookie);
      expect(adminAfter.html, "the admin gets their own page").toContain(ADMIN_MARKER);
      expect(adminAfter.cacheControl).toBe("private, no-store");

      // A page nobody has read yet: the admin's answer must not become the visitors' copy.
      const adminFirst = await read(site, "/category/design?page=1", cookie);
      expect(adminFirst.html).toContain(ADMIN_MARKER);
      expect(adminFirst.cacheControl).toBe("private, no-store");
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const visitor = await read(site, "/category/design?page=1");
        expect(visitor.html, "a visitor never gets the admin's page").not.toContain(ADMIN_MARKER);
      }
    });

    test("a session cookie this server did not sign is an anonymous reader's: served from the cache, public", async () => {
      const site = blog!;
      const cookie = await signIn(site);
      const id = await createPost(site, cookie, unique("Cache junk cookie"));
      const visitor = await readCached(site, `/blog/${id}`);
      const otherServers = createCookie(SESSION_COOKIE_NAME, {
        secrets: ["another server's secret, 32 characters or more"],
      });
      const forged = (await otherServers.serialize("a-token")).split(";")[0]!;
      const ours = cookie.split("; ").find((part) => part.startsWith(`${SESSION_COOKIE_NAME}=`))!;
      const tampered = `${ours.slice(0, -3)}${ours.endsWith("AAA") ? "BBB" : "AAA"}`;
      for (const junk of [
        `${SESSION_COOKIE_NAME}=x`,
        `${SESSION_COOKIE_NAME}=`,
        `theme=dark; ${forged}`,
        tampered,
        "blog_pending_comments=x",
      ]) {
        const page = await read(site, `/blog/${id}`, junk);
        expect(page.cacheControl, junk).toBe(PUBLIC_CACHE_CONTROL);
        expect(page.setCookie, junk).toBe("");
        expect(page.html, junk).toBe(visitor);
      }

      // Signed here but signed out: only the database knows, so it is read as a reader's own page.
      expect((await post(site, "/logout", {}, cookie)).status).toBe(302);
      const signedOut = await read(site, `/blog/${id}`, cookie);
      expect(signedOut.cacheControl).toBe("private, no-store");
      expect(signedOut.html).not.toContain(ADMIN_MARKER);
    });
  });
}

test.describe("page cache across two servers on one PostgreSQL database", () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let serverA: Blog | undefined;
  let serverB: Blog | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    database = await createDatabase("postgres");
    // One after the other: the first migrates the empty database.
    serverA = await startBlog(database.url);
    serverB = await startBlog(database.url);
  });
  test.afterAll(async () => {
    await Promise.all([stopBlog(serverA), stopBlog(serverB)]);
    await database?.drop();
  });

  test("a change on one server reaches the other's cached pages", async () => {
    const [a, b] = [serverA!, serverB!];
    const cookie = await signIn(a);
    const before = unique("Cross-server before");
    const id = await createPost(a, cookie, before);
    await expect.poll(async () => (await read(b, `/blog/${id}`)).html).toContain(before);
    expect(await readCached(b, `/blog/${id}`)).toContain(before);
    expect(await readCached(b, "/blog")).toContain(before);

    const after = unique("Cross-server after");
    await expectRedirect(post(a, `/admin/posts/edit/${id}`, postFields(after, true), cookie));
    await expect
      .poll(async () => (await read(b, `/blog/${id}`)).html, { timeout: CROSS_SERVER_BOUND_MS, intervals: [25] })
      .toContain(after);
    await expect
      .poll(async () => (await read(b, "/blog")).html, { timeout: CROSS_SERVER_BOUND_MS, intervals: [25] })
      .toContain(after);
  });
});
