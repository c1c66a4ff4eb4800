import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    // Never let a credential reach the log, whichever object carries it.
    redact: {
      paths: ["password", "*.password", "req.headers.cookie", "req.headers.authorization", "res.headers['set-cookie']"],
      censor: "[redacted]",
    },
  });
}
