import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

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

/** Starts the built production server (`node server.ts`) with nothing but PATH and `env` in its environment. */
export function startServer(env: Record<string, string>): StartedServer {
  const started = Date.now();
  let output = "";
  const child = spawn(process.execPath, ["server.ts"], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOG_LEVEL: "info", ...env },
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<ServerExit>((resolve) =>
    child.on("exit", (code) => resolve({ code, output, elapsedMs: Date.now() - started })),
  );
  return { child, exit, output: () => output };
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
