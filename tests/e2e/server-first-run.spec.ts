import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { findFreePort } from "./server-support.ts";

/**
 * `npm start` as a person runs it the first time, at a terminal: util-linux's `script` gives it a
 * pseudo-terminal, so the launcher and the server see a TTY as they would on a writer's machine.
 * The build is already fresh here (npm test built it), as it is from the second start on.
 */
test("npm start at a terminal says in a few lines where the blog is and how to set it up", async () => {
  test.setTimeout(90_000);
  const directory = mkdtempSync(path.join(tmpdir(), "blog-first-run-"));
  const port = await findFreePort();
  // What a person's shell has, without the settings a test run may carry (CI=true, LOG_FORMAT…).
  const personal = new Set(["LOG_FORMAT", "LOG_LEVEL", "CI", "ADMIN_EMAIL", "ADMIN_PASSWORD", "SITE_URL"]);
  const environment = {
    ...Object.fromEntries(Object.entries(process.env).filter(([variable]) => !personal.has(variable))),
    PORT: String(port),
    DATABASE_URL: `file:${path.join(directory, "blog.sqlite")}`,
  };
  const terminal = spawn("script", ["--quiet", "--return", "--command", "npm start", "/dev/null"], {
    env: environment,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  terminal.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  terminal.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => terminal.on("exit", () => resolve()));
  try {
    await expect.poll(() => output, { timeout: 60_000 }).toMatch(/Blog ready at http:\/\/\S+/);
    await expect.poll(() => output).toMatch(/\/setup\?token=[\w-]+/);
    const lines = output
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "")
      .split(/\r?\n/)
      .filter((line) => line.trim() !== "");
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(15);
    expect(lines.join("\n")).not.toMatch(/^\{"level"/m);
    expect(lines.join("\n")).toContain(`Database ready at ${path.join(directory, "blog.sqlite")}`);
  } finally {
    // Ctrl-C on the terminal, as the person would: the server stops and the launcher with it.
    terminal.stdin.write("\u0003");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (terminal.exitCode === null) terminal.kill("SIGKILL");
    rmSync(directory, { recursive: true, force: true });
  }
});
