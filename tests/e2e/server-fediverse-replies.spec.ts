import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { openDatabase } from "../../server/kernel/db/connect.ts";
import { createServices } from "../../server/composition.ts";
import { buildPostInput } from "../support/factories.ts";
import { type FediversePeer, startFediversePeer } from "../support/fediverse-peer.ts";
import { findFreePort, type StartedServer, startServer, waitForOutput } from "./server-support.ts";

// A reply from another ActivityPub server, seen in the browser (issue 25): it waits on the
// Comments screen with its author's handle linked to their profile, and once approved shows
// under the post like any comment, as text. The blog runs as `npm start` runs it, with the
// test-only switch that lets it reach the peer on 127.0.0.1.

const ADMIN = { email: "owner@example.com", password: "a long enough password for the owner" };
const SECRET = "fediverse replies e2e secret, thirty-two characters";

let server: StartedServer;
let peer: FediversePeer;
let directory: string;
let base: string;
let post: { id: string; slug: string };

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  peer = await startFediversePeer();
  directory = mkdtempSync(path.join(tmpdir(), "blog-fediverse-replies-"));
  const port = await findFreePort();
  base = `http://127.0.0.1:${port}`;
  server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: base,
    DATABASE_URL: `file:${directory}/blog.sqlite`,
    SESSION_SECRET: SECRET,
    COMMENT_IP_SALT: "fediverse replies e2e salt, thirty-two characters",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    FEDIVERSE_ALLOW_PRIVATE_ADDRESS: "true",
  });
  await waitForOutput(server, /Blog ready at/);
  const handle = await openDatabase({ dialect: "sqlite", filename: `${directory}/blog.sqlite` });
  try {
    const services = createServices({ db: handle.db, dialect: handle.dialect, commentIpSalt: "unused", siteUrl: base });
    post = await services.posts.createPost(buildPostInput({ title: "Replied to from afar" }));
  } finally {
    await handle.close();
  }
});

test.afterAll(async () => {
  if (server?.child.exitCode === null) {
    server.child.kill("SIGTERM");
    await server.exit;
  }
  await peer?.close();
  rmSync(directory, { recursive: true, force: true });
});

async function signIn(page: Page) {
  await page.goto(`${base}/login`);
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin/);
}

test("a reply from the fediverse waits with its author's handle, and shows under the post once approved", async ({
  page,
  browser,
}) => {
  const alice = peer.actor("alice");
  const blog = await peer.lookup(`@blog@${new URL(base).host}`);
  await peer.reply(
    alice,
    blog,
    new URL(`${base}/ap/posts/${post.id}`),
    `<p><a href="${base}/ap/users/blog" class="mention">@blog</a> Lovely <script>document.title="owned"</script>post!</p>`,
  );

  await signIn(page);
  const row = page.getByRole("row").filter({ hasText: "Lovely post!" });
  // The inbox takes the reply through the blog's queue: it shows within moments.
  await expect(async () => {
    await page.goto(`${base}/admin/comments`);
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText("Reader alice");
  await expect(row).toContainText("Reply from the fediverse");
  await expect(row.getByRole("link", { name: alice.handle })).toHaveAttribute("href", alice.id.href);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)).toEqual([]);

  // Not on the post while it waits.
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await reader.goto(`${base}/blog/${post.slug}`);
  await expect(reader.getByRole("heading", { level: 2, name: "0 Comments" })).toBeVisible();

  await row.getByRole("button", { name: "Approve the comment by Reader alice" }).click();
  await expect(row).toBeHidden();

  await reader.goto(`${base}/blog/${post.slug}`);
  const comment = reader.getByRole("list", { name: "Comments, newest first" }).getByRole("listitem");
  await expect(comment).toHaveCount(1);
  await expect(comment).toContainText("Reader alice");
  await expect(comment).toContainText("Lovely post!");
  await expect(comment.getByRole("link", { name: alice.handle })).toHaveAttribute("href", alice.id.href);
  await expect(comment.getByRole("link", { name: alice.handle })).toHaveAttribute(
    "rel",
    "nofollow ugc noopener noreferrer",
  );
  expect(await reader.title()).not.toBe("owned");
  const readerAxe = await new AxeBuilder({ page: reader }).analyze();
  expect(readerAxe.violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)).toEqual([]);
  await readerContext.close();
});
