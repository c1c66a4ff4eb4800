// `npm start`: install what is missing, build what is stale, then run the production server.
// Uses nothing outside Node itself, because it runs before dependencies exist.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { SERVER_ENVIRONMENT, serverArguments } from "./server-process.ts";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`This blog needs Node.js 22.18 or newer; this is ${process.version}. See README.md, "Quick start".`);
  process.exit(1);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

// A person at a terminal reads one line per step; the tools' own output (hundreds of lines of
// build timings and install warnings) is shown only when a step fails. Logs and CI see it all.
const quiet = process.stdout.isTTY && process.env.LOG_FORMAT !== "json";

function run(step: string, command: string, args: string[]): void {
  const started = Date.now();
  if (!quiet) {
    console.log(`${step}…`);
    const result = spawnSync(command, args, { stdio: "inherit" });
    if (result.status !== 0) process.exit(result.status ?? 1);
    return;
  }
  process.stdout.write(`${step}… `);
  const result = spawnSync(command, args, { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    console.log("failed. What it printed:\n");
    process.stdout.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    process.exit(result.status ?? 1);
  }
  console.log(`done (${Math.round((Date.now() - started) / 1000)} s)`);
}

function newestChange(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce((newest, entry) => Math.max(newest, newestChange(path.join(target, entry))), 0);
}

const installedLock = "node_modules/.package-lock.json";
if (!existsSync(installedLock) || newestChange("package-lock.json") > newestChange(installedLock)) {
  run("Installing what the blog needs (once, or after an update)", npm, ["ci", "--no-audit", "--no-fund"]);
}

const buildOutput = "build/server/index.js";
const buildInputs = ["app", "server", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];
if (newestChange(buildOutput) < Math.max(...buildInputs.map(newestChange))) {
  run("Building the site", npm, ["run", "build"]);
}

const serverEnvironment = { NODE_ENV: "production", ...SERVER_ENVIRONMENT, ...process.env };
// The launcher hands its process over to the server, so that a blog at rest is one process (this
// one would otherwise stay resident above the server, about 70 MB, for nothing). The server needs
// its own start for its V8 flags and MALLOC_ARENA_MAX, which take effect only as a process begins.
// Windows has no exec (process.execve is undefined there): the launcher waits for the server
// and passes Ctrl-C on.
if (process.execve && process.platform !== "win32") {
  process.execve(process.execPath, [process.execPath, ...serverArguments()], serverEnvironment);
}
const server = spawn(process.execPath, serverArguments(), { stdio: "inherit", env: serverEnvironment });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
