import { randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { E2E_ADMIN, E2E_ADMIN_URL } from "../../playwright.config";

/** Mutations must name this site (server/kernel/http-request-checks.ts); tests that probe the session check send it. */
export const SAME_ORIGIN = { Origin: E2E_ADMIN_URL };
export const EVIL_ORIGIN = { Origin: "https://evil.example" };

/** The admin e2e server's database (playwright.config.ts), opened beside it to check what really changed. */
const ADMIN_DATABASE = path.resolve(".e2e-data/admin/blog.sqlite");

export function uniqueSuffix(): string {
  return randomBytes(4).toString("hex");
}

export async function signIn(request: APIRequestContext, credentials = E2E_ADMIN): Promise<void> {
  const response = await request.post("/login", { form: credentials, headers: SAME_ORIGIN, maxRedirects: 0 });
  expect(response.status(), "sign-in redirects").toBe(302);
}

export async function signInThroughForm(page: Page, credentials = E2E_ADMIN): Promise<void> {
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export interface PostRow {
  id: string;
  slug: string;
  title: string;
  author: string;
  category: string;
  published: number;
}

export function withDatabase<T>(query: (db: Database.Database) => T): T {
  const db = new Database(ADMIN_DATABASE, { timeout: 5000 });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

export function findPostByTitle(title: string): PostRow | undefined {
  return withDatabase(
    (db) =>
      db.prepare("select id, slug, title, author, category, published from posts where title = ?").get(title) as
        PostRow | undefined,
  );
}

export function findPostById(id: string): PostRow | undefined {
  return withDatabase(
    (db) =>
      db.prepare("select id, slug, title, author, category, published from posts where id = ?").get(id) as
        PostRow | undefined,
  );
}

export function countComments(postId: string): number {
  return withDatabase(
    (db) =>
      (db.prepare("select count(*) as count from comments where post_id = ?").get(postId) as { count: number }).count,
  );
}

/** Comments come from the public site; here they are written straight in, as a visitor's would be. */
export function addComments(postId: string, count: number): void {
  withDatabase((db) => {
    const insert = db.prepare("insert into comments (id, post_id, author, content, created_at) values (?, ?, ?, ?, ?)");
    for (let index = 0; index < count; index += 1) {
      insert.run(`e2e${uniqueSuffix()}`, postId, "Visitor", `Comment ${index}`, new Date().toISOString());
    }
  });
}

export interface NewPost {
  title: string;
  content?: string;
  excerpt?: string;
  author?: string;
  coverImage?: string;
  category?: string;
  tags?: string;
  published?: boolean;
}

/** Creates a post through the admin action (the UI path has its own tests) and returns its row. */
export async function createPost(request: APIRequestContext, post: NewPost): Promise<PostRow> {
  const form: Record<string, string> = {
    title: post.title,
    content: post.content ?? "<p>Written by an end-to-end test.</p>",
    excerpt: post.excerpt ?? "An end-to-end test post.",
    author: post.author ?? "Test Author",
    coverImage: post.coverImage ?? `${E2E_ADMIN_URL}/covers/design-1.svg`,
    category: post.category ?? "Design",
    newTags: post.tags ?? "",
  };
  if (post.published) form.published = "on";
  const response = await request.post("/admin/posts/new", { form, headers: SAME_ORIGIN, maxRedirects: 0 });
  expect(response.status(), "create redirects to the list").toBe(302);
  const row = findPostByTitle(post.title);
  expect(row, "the post was stored").toBeDefined();
  return row!;
}

/**
 * Clicks a submit button and waits for the answer, so a message left from before cannot
 * pass for it: the server's response, or the browser's own refusal when the form's schema
 * already failed there (the form then focuses its first invalid field; the click itself
 * leaves focus on the button).
 */
export async function submitAndWait(page: Page, buttonName: string): Promise<void> {
  const answered = page.waitForResponse((response) => response.request().method() === "POST");
  answered.catch(() => undefined);
  await page.getByRole("button", { name: buttonName, exact: true }).click();
  await Promise.race([
    answered,
    page.waitForFunction(() => document.activeElement?.getAttribute("aria-invalid") === "true"),
  ]);
}

export interface PostBodyRow {
  title: string;
  format: string;
  content: string;
  content_html: string;
  published: number;
  publish_at: string | null;
}

/** The body as stored: the source typed, its format and the rendered HTML. */
export function findPostBody(id: string): PostBodyRow | undefined {
  return withDatabase(
    (db) =>
      db
        .prepare("select title, format, content, content_html, published, publish_at from posts where id = ?")
        .get(id) as PostBodyRow | undefined,
  );
}

/** Saves a post through the editor's action, as the form would without JavaScript. */
export async function updatePost(
  request: APIRequestContext,
  id: string,
  post: NewPost & { format?: string; publishAt?: string; publishAtOffset?: string },
): Promise<void> {
  const form: Record<string, string> = {
    title: post.title,
    content: post.content ?? "<p>Written by an end-to-end test.</p>",
    excerpt: post.excerpt ?? "An end-to-end test post.",
    author: post.author ?? "Test Author",
    coverImage: post.coverImage ?? `${E2E_ADMIN_URL}/covers/design-1.svg`,
    category: post.category ?? "Design",
    newTags: post.tags ?? "",
    format: post.format ?? "markdown",
    publishAt: post.publishAt ?? "",
    publishAtOffset: post.publishAtOffset ?? "",
  };
  if (post.published) form.published = "on";
  const response = await request.post(`/admin/posts/edit/${id}`, { form, headers: SAME_ORIGIN, maxRedirects: 0 });
  expect(response.status(), "save redirects to the list").toBe(302);
}
