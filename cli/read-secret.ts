import { createInterface } from "node:readline";

/**
 * Reads one line without echoing it when stdin is a terminal, so a password never
 * appears on screen or in shell history; piped input is read as it comes.
 */
export function readSecret(prompt: string): Promise<string> {
  const { stdin, stdout } = process;
  if (!stdin.isTTY) {
    return new Promise((resolve) => {
      const lines = createInterface({ input: stdin });
      lines.once("line", (line) => {
        lines.close();
        resolve(line);
      });
      lines.once("close", () => resolve(""));
    });
  }
  stdout.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding("utf8");
  return new Promise((resolve) => {
    let secret = "";
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          stdout.write("\n");
          resolve(secret);
          return;
        }
        if (char === "\u0003") process.exit(130);
        secret = char === "\u007f" ? secret.slice(0, -1) : secret + char;
      }
    };
    stdin.on("data", onData);
  });
}
