import pino from "pino";
import pinoPretty from "pino-pretty";

export type Logger = pino.Logger;

/** JSON lines for log collectors; readable coloured lines when a person watches a terminal. */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  return pino(
    {
      level,
      // Never let a credential reach the log, whichever object carries it.
      redact: {
        paths: [
          "password",
          "*.password",
          "req.headers.cookie",
          "req.headers.authorization",
          "res.headers['set-cookie']",
        ],
        censor: "[redacted]",
      },
    },
    // In this thread rather than as a transport: a transport is a worker thread, memory a blog at
    // rest would keep for a person reading a handful of lines.
    options.pretty ? pinoPretty({ ignore: "pid,hostname,reqId", translateTime: "HH:MM:ss", sync: true }) : undefined,
  );
}
