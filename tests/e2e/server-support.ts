import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { test } from "@playwright/test";
import pg from "pg";
import { SERVER_ENVIRONMENT, serverArguments } from "../../scripts/server-process.ts";

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface ServerExit {
  code: number | null;
  output: string;
  elapsedMs: number;
}

export interface StartedServer {
  child: ChildProcess;
  exit: Promise<ServerExit>;
  /** Everything the server has written to stdout and stderr so far. */
  output: () => string;
}

/** Starts the built production server as `npm start` does, with nothing but PATH and `env` in its environment. */
export function startServer(env: Record<string, string>): StartedServer {
  const started = Date.now();
  let output = "";
  const child = spawn(process.execPath, serverArguments(), {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOG_LEVEL: "info", ...SERVER_ENVIRONMENT, ...env },
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<ServerExit>((resolve) =>
    child.on("exit", (code) => resolve({ code, output, elapsedMs: Date.now() - started })),
  );
  return { child, exit, output: () => output };
}

/**
 * The first match of `pattern` in what the server has printed, waiting up to `timeoutMs`. Fails
 * with the output so far when the server exits first or the time runs out.
 */
export async function waitForOutput(
  server: StartedServer,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = server.output().match(pattern);
    if (match) return match;
    const exitCode = server.child.exitCode;
    if (exitCode !== null || server.child.signalCode !== null || Date.now() > deadline) {
      const why = exitCode !== null || server.child.signalCode !== null ? "before it exited" : `in ${timeoutMs} ms`;
      throw new Error(`the server printed nothing matching ${pattern} ${why}:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A port nothing listens on right now, so the server's SITE_URL can name it before it starts. */
export async function findFreePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("The probe socket has no port");
  return address.port;
}

/**
 * Runs `run` with the URL of a PostgreSQL database made for it and dropped afterwards. Without
 * a PostgreSQL server the test is skipped, except under CI, where it fails.
 */
export async function withScratchPostgresDatabase(prefix: string, run: (url: string) => Promise<void>): Promise<void> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (error) {
    if (process.env.CI === "true") throw error;
    test.skip(true, `no PostgreSQL at ${POSTGRES_ADMIN_URL}: ${(error as Error).message}`);
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    await admin.query(`create database ${name}`);
    await run(url.href);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
