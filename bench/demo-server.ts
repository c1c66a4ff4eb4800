// The production build (`npm run build` first) on a fresh SQLite database with the demo content,
// for the measurements that look at pages as a reader's browser gets them.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVER_ENVIRONMENT, serverArguments } from "../scripts/server-process.ts";

/** Polls `url` until it answers 200, failing at once if `child` exits first. */
export async function waitUntilUp(url: string, child?: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child && child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const up = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** Stops a server process with SIGTERM, as an operator would, and waits for it to exit. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

export interface Latency {
  p50: number;
  p99: number;
  count: number;
}

/** Sequential requests (one at a time) until `done` says stop, at least `minimum`; their p50 and p99 in ms. */
export async function pageLatency(url: string, done: () => boolean, minimum = 20): Promise<Latency> {
  const timings: number[] = [];
  while (timings.length < minimum || !done()) {
    const started = performance.now();
    const response = await fetch(url, { headers: { "accept-encoding": "gzip" } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  const at = (share: number) => timings[Math.min(timings.length - 1, Math.floor(share * timings.length))]!;
  return { p50: at(0.5), p99: at(0.99), count: timings.length };
}

export interface DemoServer {
  base: string;
  /** The address of one published post, read off /blog. */
  postPath: string;
  stop: () => Promise<void>;
}

/** `environment` adds to the server's own (an admin to sign in as, for instance). */
export async function startDemoServer(port: number, environment: Record<string, string> = {}): Promise<DemoServer> {
  const base = `http://127.0.0.1:${port}`;
  const directory = mkdtempSync(path.join(tmpdir(), "blog-demo-"));
  const server = spawn(process.execPath, serverArguments(), {
    env: {
      ...SERVER_ENVIRONMENT,
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: base,
      DATABASE_URL: `file:${directory}/blog.sqlite`,
      BLOG_DEMO: "1",
      LOG_LEVEL: "warn",
      ...environment,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    await stopServer(server);
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(`${base}/healthz`, server);
    const blog = await (await fetch(`${base}/blog`)).text();
    const postPath = blog.match(/href="(\/blog\/[a-z0-9-]+)"/)?.[1];
    if (!postPath) throw new Error("no post link on /blog");
    return { base, postPath, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
