// `npm test` runs this before Playwright: find a Chromium, or install one, so the end-to-end
// tests run on a bare machine too. playwright.config.ts imports findChromium, so both agree on
// the browser; importing this module only looks, it never installs.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const APT_GET = "/usr/bin/apt-get";
const MINUTE_MS = 60_000;

export interface ChromiumLocations {
  /** Where CHROMIUM_PATH points, if it is set. */
  chromiumPath?: string;
  /** Where Playwright keeps the Chromium that `npx playwright install chromium` downloads. */
  playwrightChromium: () => string | undefined;
  isExecutable: (file: string) => boolean;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function playwrightChromiumPath(): string | undefined {
  try {
    const { chromium } = createRequire(import.meta.url)("@playwright/test") as typeof import("@playwright/test");
    return chromium.executablePath();
  } catch {
    // No @playwright/test installed yet, or a platform Playwright has no browser for.
    return undefined;
  }
}

const systemLocations: ChromiumLocations = {
  chromiumPath: process.env.CHROMIUM_PATH || undefined,
  playwrightChromium: playwrightChromiumPath,
  isExecutable: isExecutableFile,
};

/** The first Chromium that exists: CHROMIUM_PATH, then Debian's, then Playwright's own download. */
export function findChromium(locations: ChromiumLocations = systemLocations): string | undefined {
  const candidates = [() => locations.chromiumPath, () => DEBIAN_CHROMIUM, locations.playwrightChromium];
  for (const candidate of candidates) {
    const file = candidate();
    if (file && locations.isExecutable(file)) return file;
  }
  return undefined;
}

export type CommandOutcome = { ok: true } | { ok: false; reason: string };

interface Step {
  command: string;
  args: string[];
  timeoutMs: number;
}

interface InstallPlan {
  description: string;
  steps: Step[];
}

export interface Installer {
  findChromium: () => string | undefined;
  /** Runs a command to completion, or stops it after timeoutMs. */
  run: (step: Step) => CommandOutcome;
  /** apt-get installs system-wide, so only root on a system that has it may use it. */
  canUseApt: boolean;
  /** Playwright's own command line (what `npx playwright` runs), so a timeout stops the download itself. */
  playwrightCommand: { command: string; args: string[] };
  say: (line: string) => void;
}

export type EnsureOutcome = { ok: true; path: string } | { ok: false; message: string };

function installPlans(installer: Installer): InstallPlan[] {
  const aptInstall = { command: "apt-get", args: ["install", "-y", "chromium"], timeoutMs: 10 * MINUTE_MS };
  const aptUpdate = { command: "apt-get", args: ["update"], timeoutMs: 5 * MINUTE_MS };
  const playwright = installer.playwrightCommand;
  const playwrightInstall = {
    command: playwright.command,
    args: [...playwright.args, "install", "chromium"],
    timeoutMs: 10 * MINUTE_MS,
  };
  return [
    ...(installer.canUseApt
      ? [
          { description: "apt-get install -y chromium", steps: [aptInstall] },
          // Stale package lists are the usual reason the first attempt fails on a fresh machine.
          { description: "apt-get update, then apt-get install -y chromium", steps: [aptUpdate, aptInstall] },
        ]
      : []),
    { description: "npx playwright install chromium", steps: [playwrightInstall] },
  ];
}

function runSteps(installer: Installer, steps: Step[]): CommandOutcome {
  for (const step of steps) {
    const outcome = installer.run(step);
    if (!outcome.ok) return outcome;
  }
  return { ok: true };
}

/**
 * Finds Chromium, or installs it: Debian's package when root with apt-get, otherwise (or when
 * that fails) Playwright's download. Every command is bounded in time, so this cannot hang.
 */
export function ensureChromium(installer: Installer): EnsureOutcome {
  const found = installer.findChromium();
  if (found) return { ok: true, path: found };

  const failures: string[] = [];
  for (const plan of installPlans(installer)) {
    installer.say(`Chromium not found; trying ${plan.description}…`);
    const outcome = runSteps(installer, plan.steps);
    if (!outcome.ok) {
      failures.push(`${plan.description}: ${outcome.reason}`);
      continue;
    }
    const installed = installer.findChromium();
    if (installed) return { ok: true, path: installed };
    failures.push(`${plan.description}: finished, but no Chromium appeared`);
  }
  return {
    ok: false,
    message:
      "The end-to-end tests need Chromium: install Debian's chromium package (apt-get install chromium), " +
      "or run `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium binary " +
      `(tried ${failures.join("; ")}).`,
  };
}

function runQuietly({ command, args, timeoutMs }: Step): CommandOutcome {
  const result = spawnSync(command, args, {
    stdio: "ignore",
    timeout: timeoutMs,
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.error && (result.error as NodeJS.ErrnoException).code === "ETIMEDOUT") {
    return { ok: false, reason: `stopped after ${timeoutMs / MINUTE_MS} minutes` };
  }
  if (result.error) return { ok: false, reason: result.error.message };
  if (result.status !== 0) return { ok: false, reason: `exit code ${result.status ?? result.signal}` };
  return { ok: true };
}

function main(): void {
  if (systemLocations.chromiumPath && !isExecutableFile(systemLocations.chromiumPath)) {
    console.log(`CHROMIUM_PATH=${systemLocations.chromiumPath} is not an executable file; looking elsewhere.`);
  }
  const outcome = ensureChromium({
    findChromium: () => findChromium(),
    run: runQuietly,
    canUseApt: process.getuid?.() === 0 && isExecutableFile(APT_GET),
    playwrightCommand: {
      command: process.execPath,
      args: [createRequire(import.meta.url).resolve("@playwright/test/cli")],
    },
    say: (line) => console.log(line),
  });
  if (!outcome.ok) {
    console.error(outcome.message);
    process.exit(1);
  }
  console.log(`End-to-end tests use Chromium at ${outcome.path}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
