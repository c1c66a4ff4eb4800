import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import SqliteDatabase from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { parseConfig } from "../../server/kernel/config.ts";
import { openDatabase } from "../../server/kernel/db/connect.ts";
import { createServices } from "../../server/composition.ts";

const run = promisify(execFile);

/** Runs `npm run blog -- …` the way an admin would: a separate Node process on the source. */
async function blog(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["cli/blog.ts", ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

/**
 * Runs the CLI as a person at a terminal: util-linux's `script` gives it a pseudo-terminal, and
 * `input` is what they type. Answers everything it printed.
 */
async function atTerminal(args: string[], env: Record<string, string>, input: string): Promise<string> {
  const command = [process.execPath, "cli/blog.ts", ...args].map((part) => `'${part}'`).join(" ");
  const terminal = spawn("script", ["--quiet", "--return", "--command", command, "/dev/null"], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  terminal.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  terminal.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // The question waits for the answer; typed before it, the terminal keeps it until read.
  terminal.stdin.write(input);
  await new Promise((resolve) => terminal.on("exit", resolve));
  return output.replace(/\r/g, "");
}

// Each case starts Node processes that load the whole server; a busy machine needs more than the default.
describe("the blog CLI on SQLite", { timeout: 90_000 }, () => {
  let directory: string;
  let env: Record<string, string>;

  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), "blog-cli-"));
    env = { DATABASE_URL: `file:${path.join(directory, "blog.sqlite")}` };
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it("migrates, seeds once, and backs up a consistent copy", async () => {
    expect((await blog(["migrate"], env)).stdout).toContain("The database schema is up to date.");
    expect((await blog(["seed-demo"], env)).stdout).toMatch(/^Loaded \d+ demo posts\./);
    expect((await blog(["seed-demo"], env)).stdout).toContain("already has posts");

    const backupFile = path.join(directory, "backup.sqlite");
    expect((await blog(["backup", backupFile], env)).code).toBe(0);
    const copy = new SqliteDatabase(backupFile, { readonly: true });
    expect(copy.prepare("select count(*) as count from posts").get()).toEqual({ count: 20 });
    copy.close();

    const again = await blog(["backup", backupFile], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
  });

  it("backs up into a folder it creates, and refuses to back up or export a blog that does not exist", async () => {
    const missing = await blog(["backup", path.join(directory, "backups", "blog.sqlite")], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`There is no blog database at ${path.join(directory, "blog.sqlite")}.`);
    expect((await blog(["export", path.join(directory, "export.json")], env)).stderr).toContain(
      "There is no blog database",
    );
    expect(existsSync(path.join(directory, "blog.sqlite"))).toBe(false);

    expect((await blog(["migrate"], env)).stdout).toContain("Creating a new blog database at");
    const backupFile = path.join(directory, "backups", "nightly", "blog.sqlite");
    expect((await blog(["backup", backupFile], env)).stdout).toContain(`Backed up to ${backupFile}`);
    expect(existsSync(backupFile)).toBe(true);
  });

  it("exports, imports a WordPress file with a category map, and restores a checked backup only while stopped", async () => {
    expect((await blog(["seed-demo"], env)).code).toBe(0);
    const exportFile = path.join(directory, "export.json");
    expect((await blog(["export", exportFile], env)).stdout).toContain("Exported to");
    expect(JSON.parse(readFileSync(exportFile, "utf8")).posts).toHaveLength(20);

    const map = path.join(directory, "map.json");
    writeFileSync(map, JSON.stringify({ Woodworking: "Tutorials" }));
    const wxr = path.resolve("tests/fixtures/wordpress-export.xml");
    const imported = await blog(["import", wxr, "--category-map", map, "--default-category", "Design"], env);
    expect(imported.stdout).toContain(
      "Imported from a WordPress export: 3 posts, 3 comments, 1 pages, 0 settings created; 2 skipped.",
    );
    expect(imported.stdout).toContain("filed under Design");
    const badMap = await blog(["import", wxr, "--default-category", "Cooking"], env);
    expect(badMap.stderr).toContain("--default-category must be one of Development");
    const truncated = path.join(directory, "cut.json");
    writeFileSync(truncated, readFileSync(exportFile, "utf8").slice(0, 500));
    const refused = await blog(["import", truncated], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Nothing was imported: The file is not complete JSON");

    const backupFile = path.join(directory, "backup.sqlite");
    await blog(["backup", backupFile], env);
    const damaged = path.join(directory, "damaged.sqlite");
    writeFileSync(damaged, readFileSync(backupFile).subarray(0, 8192));
    expect((await blog(["restore", damaged], env)).stderr).toContain("Nothing was restored");

    const database = path.join(directory, "blog.sqlite");
    writeFileSync(`${database}.pid`, `${process.pid}\n`);
    expect((await blog(["restore", backupFile], env)).stderr).toContain(
      `The blog is running on ${database} (process ${process.pid}); stop it before restoring.`,
    );
    rmSync(`${database}.pid`);

    const current = new SqliteDatabase(database);
    current.prepare("delete from comments").run();
    current.prepare("delete from post_tags").run();
    current.prepare("delete from posts").run();
    current.close();
    const restored = await blog(["restore", backupFile], env);
    expect(restored.stdout).toContain(`the previous database is kept as ${database}.before-restore`);
    const postsIn = (file: string) => {
      const copy = new SqliteDatabase(file, { readonly: true });
      const { count } = copy.prepare("select count(*) as count from posts").get() as { count: number };
      copy.close();
      return count;
    };
    expect(postsIn(database)).toBe(23);

    // Restored again: the blog as it was before the first restore is still kept.
    const again = await blog(["restore", backupFile], env);
    expect(again.stdout).toContain(`the previous database is kept as ${database}.before-restore-2`);
    expect(postsIn(`${database}.before-restore`)).toBe(0);
    expect(postsIn(`${database}.before-restore-2`)).toBe(23);
    expect(postsIn(database)).toBe(23);
  });

  it("imports WordPress pages as pages by default, as posts or not at all when asked, and refuses any other choice", async () => {
    const wxr = path.resolve("tests/fixtures/wordpress-export.xml");
    expect((await blog(["--help"], env)).stdout).toContain("--pages pages|posts|skip");
    const other = await blog(["import", wxr, "--pages", "everything"], env);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("--pages must be one of pages, posts, skip");

    const skipped = await blog(["import", wxr, "--pages", "skip"], env);
    expect(skipped.stdout).toContain("3 posts, 3 comments, 0 pages, 0 settings created; 3 skipped.");
    expect(skipped.stdout).toContain("Skipped “About the workshop”: a page (left out as asked");
    const asPosts = await blog(["import", wxr, "--pages", "posts"], env);
    expect(asPosts.stdout).toContain("1 posts, 0 comments, 0 pages, 0 settings created;");

    const fresh = { DATABASE_URL: `file:${path.join(directory, "fresh.sqlite")}` };
    expect((await blog(["import", wxr, "--pages", "pages"], fresh)).stdout).toContain("3 posts, 3 comments, 1 pages");
    const database = new SqliteDatabase(path.join(directory, "fresh.sqlite"), { readonly: true });
    expect(database.prepare("select slug, published from pages where built_in is null").all()).toEqual([
      { slug: "about-the-workshop", published: 1 },
    ]);
    database.close();
  });

  it("creates an admin with the password from the environment, never from argv", async () => {
    const created = await blog(["create-admin", "--email", "Owner@Example.com"], {
      ...env,
      ADMIN_PASSWORD: "a sturdy password",
    });
    expect(created.stdout).toContain("Admin Owner@Example.com created.");
    const duplicate = await blog(["create-admin", "--email", "owner@example.com"], {
      ...env,
      ADMIN_PASSWORD: "another password",
    });
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("already exists; use reset-password");

    const reset = await blog(["reset-password", "--email", "owner@example.com"], {
      ...env,
      ADMIN_PASSWORD: "a newer password",
    });
    expect(reset.stdout).toContain("Password changed for owner@example.com");
    const unknown = await blog(["reset-password", "--email", "who@example.com"], {
      ...env,
      ADMIN_PASSWORD: "whatever long",
    });
    expect(unknown.stderr).toContain("No admin has the email who@example.com.");
  });

  // Seven commands, each a Node process loading the whole server.
  it("makes an app key the servers accept, lists it and revokes it by name", { timeout: 240_000 }, async () => {
    await blog(["create-admin", "--email", "owner@example.com"], { ...env, ADMIN_PASSWORD: "a sturdy password" });
    const created = await blog(["apps", "create", "--name", "iA Writer", "--scope", "drafts"], env);
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(/^admin-key: [0-9a-f]{24}:[0-9a-f]{64}$/),
      expect.stringMatching(/^content-key: [0-9a-f]{26}$/),
      expect.stringMatching(/^token: [A-Za-z0-9_-]{43}$/),
    ]);

    // An app server of this blog (its secret is the one the CLI read from the data directory) takes the key.
    const handle = await openDatabase(parseConfig({ DATABASE_URL: env.DATABASE_URL! }).database);
    try {
      const services = createServices({
        db: handle.db,
        dialect: handle.dialect,
        commentIpSalt: "cli test salt",
        sessionSecret: readFileSync(path.join(directory, "session-secret"), "utf8").trim(),
      });
      const contentKey = lines[1]!.slice("content-key: ".length);
      const caller = await services.apps.keys.authenticateContent(contentKey, "127.0.0.1");
      expect(caller).toMatchObject({ keyName: "iA Writer", scope: "drafts" });
    } finally {
      await handle.close();
    }

    expect((await blog(["apps", "list"], env)).stdout).toMatch(
      /^iA Writer {2}drafts {2}as owner {2}last used .* from 127\.0\.0\.0\/24$/m,
    );
    const badScope = await blog(["apps", "create", "--name", "Other", "--scope", "everything"], env);
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toContain("Choose what the app may do");
    expect((await blog(["apps", "revoke", "iA", "Writer"], env)).stdout).toContain("Revoked iA Writer.");
    const again = await blog(["apps", "revoke", "iA Writer"], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("No such app key");
    expect((await blog(["apps", "list"], env)).stdout).toContain("No app keys.");
  });

  it("refuses short passwords, missing emails and unknown commands with a clear message", async () => {
    const short = await blog(["create-admin", "--email", "a@example.com"], { ...env, ADMIN_PASSWORD: "short" });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 10 characters");
    expect((await blog(["create-admin"], { ...env, ADMIN_PASSWORD: "long enough pw" })).stderr).toContain(
      "create-admin needs --email <address>",
    );
    const unknown = await blog(["explode"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown command "explode"');
    expect(existsSync(path.join(directory, "blog.sqlite"))).toBe(true);
  });

  it("creates no database for a mistyped command or an import of a file that is not there", async () => {
    const database = path.join(directory, "blog.sqlite");
    const typo = await blog(["reset-passwd"], env);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('Unknown command "reset-passwd"');
    const missing = await blog(["import", path.join(directory, "no-such-export.json")], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no-such-export.json does not exist.");
    expect(existsSync(database)).toBe(false);
  });

  // Its own database from the run's template: the shared one may hold another checkout's migrations.
  it.skipIf(testDialects().find((target) => target.dialect === "postgres")?.skip)(
    "explains PostgreSQL backups instead of attempting one",
    async () => {
      const database = await createTestDatabase("postgres");
      try {
        const result = await blog(["backup", "x.dump"], { DATABASE_URL: database.url });
        expect(result.stderr).toContain("pg_dump");
      } finally {
        await database.close();
      }
    },
  );

  it(
    "asks at a terminal before creating a blog, and says how far a backup, an export and a restore have got",
    {
      timeout: 300_000,
    },
    async () => {
      const database = path.join(directory, "blog.sqlite");
      const refused = await atTerminal(["seed-demo"], env, "n\n");
      expect(refused).toContain(`There is no blog database at ${database}.`);
      expect(refused).toContain("Create a new, empty blog there? [y/N]");
      expect(refused).toContain("Nothing was created.");
      expect(existsSync(database)).toBe(false);
      expect(await atTerminal(["seed-demo"], env, "y\n")).toMatch(/Loaded \d+ demo posts\./);
      expect(existsSync(database)).toBe(true);

      const elsewhere = { DATABASE_URL: `file:${path.join(directory, "other.sqlite")}` };
      const unasked = await atTerminal(["migrate", "--yes"], elsewhere, "");
      expect(unasked).not.toContain("[y/N]");
      expect(unasked).toContain("The database schema is up to date.");
      const apps = await blog(["apps", "list"], { DATABASE_URL: `file:${path.join(directory, "none.sqlite")}` });
      expect(apps.code).toBe(1);
      expect(apps.stderr).toContain("There is no blog database");

      const backupFile = path.join(directory, "backups", "blog.sqlite");
      expect(await atTerminal(["backup", backupFile], env, "")).toContain("Backing up… done");
      expect((await blog(["export", path.join(directory, "export.json")], env)).stdout).toContain("Exporting…");
      const restored = await blog(["restore", backupFile], env);
      expect(restored.stdout).toContain(`Checking ${backupFile}…`);
      expect(restored.stdout).toContain(`Restored ${database} from ${backupFile}`);
    },
  );

  it("fails fast with one line on invalid configuration", async () => {
    const result = await blog(["migrate"], { DATABASE_URL: "mysql://nope" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "Invalid configuration: DATABASE_URL must be file:<path> or postgres://user@host:port/database",
    );
  });
});
