// What the CLI says while it works and how it asks: a person at a terminal sees a percentage or
// a count that updates in place and answers questions; a script or a log gets one line per step.
import { createInterface } from "node:readline/promises";

const atTerminal = (): boolean => process.stdout.isTTY === true;

/** Asks a yes-or-no question on the terminal; anything but "y" or "yes" is no. */
export async function confirm(question: string): Promise<boolean> {
  const lines = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await lines.question(`${question} [y/N] `);
    return /^y(?:es)?$/i.test(answer.trim());
  } finally {
    lines.close();
  }
}

/** True when the command can ask its user a question (stdin and stdout are a terminal). */
export const canAsk = (): boolean => process.stdin.isTTY === true && atTerminal();

export interface Progress {
  /** How far the step is: a fraction (0–1) shown as a percentage, or words ("12.3 MB"). */
  update(done: number | string): void;
  /** Ends the step's line with its outcome. */
  done(outcome?: string): void;
}

/**
 * A long step: "Backing up… 45%" rewritten in place at a terminal, at most every tenth of a
 * second; elsewhere the step's line when it starts and its outcome when it ends.
 */
export function step(label: string): Progress {
  const terminal = atTerminal();
  let shownAt = 0;
  if (terminal) process.stdout.write(`${label}…`);
  else console.log(`${label}…`);
  return {
    update(done) {
      if (!terminal || Date.now() - shownAt < 100) return;
      shownAt = Date.now();
      const shown = typeof done === "number" ? `${Math.floor(done * 100)}%` : done;
      process.stdout.write(`\r\u001b[2K${label}… ${shown}`);
    },
    done(outcome = "done") {
      if (terminal) process.stdout.write(`\r\u001b[2K${label}… ${outcome}\n`);
      else console.log(`${label}: ${outcome}`);
    },
  };
}

/** "12.3 MB": a byte count as a person reads it. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
