import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import SqliteDatabase from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

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

describe("the blog CLI on SQLite", () => {
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

  it("explains PostgreSQL backups instead of attempting one", async () => {
    const result = await blog(["backup", "x.dump"], {
      DATABASE_URL: process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    });
    if (result.stderr.includes("Cannot reach the database")) return;
    expect(result.stderr).toContain("pg_dump");
  });

  it("fails fast with one line on invalid configuration", async () => {
    const result = await blog(["migrate"], { DATABASE_URL: "mysql://nope" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "Invalid configuration: DATABASE_URL must be file:<path> or postgres://user@host:port/database",
    );
  });
});
