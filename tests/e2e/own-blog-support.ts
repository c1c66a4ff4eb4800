import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { findFreePort, type StartedServer, startServer } from "./server-support.ts";

// A blog of a spec's own, on a fresh SQLite database with the demo content, for specs that change
// what every other spec on the shared servers would see (the home page's words, the demo posts).

export const OWN_ADMIN = { email: "own-blog@example.com", password: "a blog of this spec's own" };

export interface OwnBlog {
  url: string;
  directory: string;
  server: StartedServer;
}

export async function startOwnBlog(name: string): Promise<OwnBlog> {
  const directory = mkdtempSync(path.join(tmpdir(), `blog-${name}-`));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: url,
    DATABASE_URL: `file:${directory}/blog.sqlite`,
    ADMIN_EMAIL: OWN_ADMIN.email,
    ADMIN_PASSWORD: OWN_ADMIN.password,
    SESSION_SECRET: `${name} session secret, thirty-two characters or more`,
    COMMENT_IP_SALT: `${name} comment salt, thirty-two characters or more`,
    LOG_LEVEL: "warn",
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, directory, server };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.child.kill("SIGKILL");
  throw new Error(`the server did not start in 60 s:\n${server.output()}`);
}

export async function stopOwnBlog(blog: OwnBlog | undefined): Promise<void> {
  if (!blog) return;
  if (blog.server.child.exitCode === null) {
    blog.server.child.kill("SIGTERM");
    await blog.server.exit;
  }
  rmSync(blog.directory, { recursive: true, force: true });
}

/** Signs in through the login form, as the owner would, and waits for the admin area. */
export async function signInToOwnBlog(page: Page, blog: OwnBlog): Promise<void> {
  await page.goto(`${blog.url}/login`);
  await page.getByLabel("Email").fill(OWN_ADMIN.email);
  await page.getByLabel("Password").fill(OWN_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${blog.url}/admin`);
}
