import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { findFreePort, type StartedServer, startServer, waitForOutput } from "./server-support.ts";

export interface BlogWithMail {
  server: StartedServer;
  /** The real SMTP server process the blog sends to; every message it caught, parsed. */
  sink: SmtpSink;
  /** The blog's address, `http://127.0.0.1:{port}`. */
  base: string;
  /** Where its SQLite database lives: `${directory}/blog.sqlite`. */
  directory: string;
  /** Signs the owner in through the sign-in form. */
  signIn(page: Page): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A production server of its own on a fresh SQLite database, with an owner, beside a real SMTP
 * server process: with `SMTP_URL` and `MAIL_FROM` set (email configured by the environment), or
 * without them (`mailFromEnvironment: false`, for email set up on Settings → Email).
 */
export async function startBlogWithMail(
  name: string,
  {
    admin,
    mailFromEnvironment = true,
    env = {},
  }: { admin: { email: string; password: string }; mailFromEnvironment?: boolean; env?: Record<string, string> },
): Promise<BlogWithMail> {
  const sink = await startSmtpSink();
  const directory = mkdtempSync(path.join(tmpdir(), `blog-${name}-`));
  const port = await findFreePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: base,
    DATABASE_URL: `file:${directory}/blog.sqlite`,
    SESSION_SECRET: `${name} e2e secret, thirty-two characters or more`,
    COMMENT_IP_SALT: `${name} e2e salt, thirty-two characters or more`,
    ...(mailFromEnvironment ? { SMTP_URL: sink.url, MAIL_FROM: "Heron Notes <news@blog.example>" } : {}),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ...env,
  });
  await waitForOutput(server, /Blog ready at/);
  return {
    server,
    sink,
    base,
    directory,
    async signIn(page) {
      await page.goto(`${base}/login`);
      await page.getByRole("textbox", { name: "Email", exact: true }).fill(admin.email);
      await page.getByLabel("Password").fill(admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/admin/);
    },
    async stop() {
      if (server.child.exitCode === null) {
        server.child.kill("SIGTERM");
        await server.exit;
      }
      await sink.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
