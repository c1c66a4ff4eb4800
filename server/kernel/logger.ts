import pino from "pino";

export type Logger = pino.Logger;

/** JSON lines for log collectors; readable coloured lines when a person watches a terminal. */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  return pino({
    level,
    // Never let a credential reach the log, whichever object carries it.
    redact: {
      paths: ["password", "*.password", "req.headers.cookie", "req.headers.authorization", "res.headers['set-cookie']"],
      censor: "[redacted]",
    },
    transport: options.pretty
      ? { target: "pino-pretty", options: { ignore: "pid,hostname,reqId", translateTime: "HH:MM:ss" } }
      : undefined,
  });
}
