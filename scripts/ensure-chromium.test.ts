import { describe, expect, it } from "vitest";
import { type CommandOutcome, ensureChromium, findChromium, type Installer } from "./ensure-chromium.ts";

const PLAYWRIGHT_CHROMIUM = "/home/ci/.cache/ms-playwright/chromium-1/chrome-linux64/chrome";

function locations(existing: string[], chromiumPath?: string) {
  const checked: string[] = [];
  return {
    checked,
    chromiumPath,
    playwrightChromium: () => PLAYWRIGHT_CHROMIUM,
    isExecutable: (file: string) => {
      checked.push(file);
      return existing.includes(file);
    },
  };
}

describe("findChromium", () => {
  it("prefers CHROMIUM_PATH, then Debian's Chromium, then Playwright's download", () => {
    const everywhere = ["/opt/chromium/chrome", "/usr/bin/chromium", PLAYWRIGHT_CHROMIUM];
    expect(findChromium(locations(everywhere, "/opt/chromium/chrome"))).toBe("/opt/chromium/chrome");
    expect(findChromium(locations(everywhere))).toBe("/usr/bin/chromium");
    expect(findChromium(locations([PLAYWRIGHT_CHROMIUM]))).toBe(PLAYWRIGHT_CHROMIUM);
  });

  it("looks further when CHROMIUM_PATH names a missing file", () => {
    const lookup = locations(["/usr/bin/chromium"], "/nowhere/chrome");
    expect(findChromium(lookup)).toBe("/usr/bin/chromium");
    expect(lookup.checked).toEqual(["/nowhere/chrome", "/usr/bin/chromium"]);
  });

  it("finds nothing when no candidate exists", () => {
    const lookup = locations([], "/nowhere/chrome");
    expect(findChromium(lookup)).toBeUndefined();
    expect(lookup.checked).toEqual(["/nowhere/chrome", "/usr/bin/chromium", PLAYWRIGHT_CHROMIUM]);
  });
});

/**
 * A machine where each run of a command gives the next of its scripted outcomes (success once
 * they run out), and one command, when it succeeds, installs Chromium.
 */
function machine(options: {
  canUseApt: boolean;
  outcomes?: Record<string, CommandOutcome[]>;
  installedBy?: string;
  initially?: string;
}) {
  const ran: string[] = [];
  let chromium = options.initially;
  const installer: Installer = {
    findChromium: () => chromium,
    run: ({ command, args, timeoutMs }) => {
      const line = [command, ...args].join(" ");
      ran.push(line);
      expect(timeoutMs, `${line} is bounded in time`).toBeGreaterThan(0);
      const outcome = options.outcomes?.[line]?.shift() ?? { ok: true };
      if (outcome.ok && line === options.installedBy) chromium = "/usr/bin/chromium";
      return outcome;
    },
    canUseApt: options.canUseApt,
    playwrightCommand: { command: "node", args: ["playwright-cli.js"] },
    say: () => {},
  };
  return { installer, ran };
}

const failed = (reason: string): CommandOutcome => ({ ok: false, reason });

describe("ensureChromium", () => {
  it("installs nothing when Chromium is already there", () => {
    const { installer, ran } = machine({ canUseApt: true, initially: "/usr/bin/chromium" });
    expect(ensureChromium(installer)).toEqual({ ok: true, path: "/usr/bin/chromium" });
    expect(ran).toEqual([]);
  });

  it("installs Debian's package as root", () => {
    const { installer, ran } = machine({ canUseApt: true, installedBy: "apt-get install -y chromium" });
    expect(ensureChromium(installer)).toEqual({ ok: true, path: "/usr/bin/chromium" });
    expect(ran).toEqual(["apt-get install -y chromium"]);
  });

  it("refreshes the package lists when the first install fails", () => {
    const { installer, ran } = machine({
      canUseApt: true,
      outcomes: { "apt-get install -y chromium": [failed("exit code 100")] },
      installedBy: "apt-get install -y chromium",
    });
    expect(ensureChromium(installer)).toEqual({ ok: true, path: "/usr/bin/chromium" });
    expect(ran).toEqual(["apt-get install -y chromium", "apt-get update", "apt-get install -y chromium"]);
  });

  it("falls back to Playwright's download when apt-get cannot install it", () => {
    const { installer, ran } = machine({
      canUseApt: true,
      outcomes: { "apt-get install -y chromium": [failed("exit code 100"), failed("exit code 100")] },
      installedBy: "node playwright-cli.js install chromium",
    });
    expect(ensureChromium(installer).ok).toBe(true);
    expect(ran).toEqual([
      "apt-get install -y chromium",
      "apt-get update",
      "apt-get install -y chromium",
      "node playwright-cli.js install chromium",
    ]);
  });

  it("uses only Playwright's download when not root", () => {
    const { installer, ran } = machine({ canUseApt: false, installedBy: "node playwright-cli.js install chromium" });
    expect(ensureChromium(installer).ok).toBe(true);
    expect(ran).toEqual(["node playwright-cli.js install chromium"]);
  });

  it("says in one line what to install when every attempt fails", () => {
    const { installer } = machine({
      canUseApt: true,
      outcomes: {
        "apt-get install -y chromium": [failed("exit code 100")],
        "apt-get update": [failed("stopped after 5 minutes")],
        "node playwright-cli.js install chromium": [failed("exit code 1")],
      },
    });
    const outcome = ensureChromium(installer);
    expect(outcome.ok).toBe(false);
    const message = outcome.ok ? "" : outcome.message;
    expect(message).not.toContain("\n");
    expect(message).toContain("install Debian's chromium package (apt-get install chromium)");
    expect(message).toContain("npx playwright install chromium");
    expect(message).toContain("apt-get update, then apt-get install -y chromium: stopped after 5 minutes");
  });

  it("does not count a command that succeeded without producing Chromium as an install", () => {
    const { installer, ran } = machine({ canUseApt: false });
    const outcome = ensureChromium(installer);
    expect(ran).toEqual(["node playwright-cli.js install chromium"]);
    expect(outcome.ok ? "" : outcome.message).toContain("finished, but no Chromium appeared");
  });
});
