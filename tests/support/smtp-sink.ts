// A real SMTP server in the test process (the `smtp-server` package), keeping what it receives.
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CaughtEmail {
  /** The envelope's recipient, as the sender gave it. */
  to: string;
  /** The whole message as received, when the sink parses. */
  parsed: ParsedMail | undefined;
}

/** An SMTP answer a test makes the sink give: `451` (try later) or `550` (never). */
export interface SmtpRefusal {
  code: number;
  message: string;
}

export interface SmtpSink {
  url: string;
  port: number;
  received: CaughtEmail[];
  /** Decides per recipient whether the server refuses it; undefined accepts. */
  refuse: (recipient: string) => SmtpRefusal | undefined;
  /** While set, a message is kept (and counted in `received`) but not answered until it settles. */
  hold: Promise<void> | undefined;
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<void>;
  /** How many senders' connections are open now. */
  openConnections: () => number;
  close: () => Promise<void>;
}

/**
 * Starts a catching SMTP server on a free port of 127.0.0.1, plain SMTP without authentication.
 * `parse: false` keeps only the envelope, for tests that count thousands of messages.
 */
export async function startSmtpSink({ parse = true }: { parse?: boolean } = {}): Promise<SmtpSink> {
  const received: CaughtEmail[] = [];
  let open = 0;
  const sink = { received, refuse: () => undefined, hold: undefined } as unknown as SmtpSink;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // A test's sender may leave its pooled connection open; closing waits this long, not 30 s, for it.
    closeTimeout: 500,
    onConnect(_session, callback) {
      open += 1;
      callback();
    },
    onClose() {
      open -= 1;
    },
    onRcptTo(address, _session, callback) {
      const refusal = sink.refuse(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      const recipients = session.envelope.rcptTo.map((address) => address.address);
      const caught = parse
        ? simpleParser(stream).then((parsed) => parsed)
        : new Promise<undefined>((resolve, reject) => {
            stream.on("data", () => {});
            stream.on("end", () => resolve(undefined));
            stream.on("error", reject);
          });
      caught.then(
        async (parsed) => {
          for (const to of recipients) received.push({ to, parsed });
          await sink.hold;
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // A sender killed mid-message (the crash tests) resets its connection: its loss, not the sink's.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return Object.assign(sink, {
    port,
    url: `smtp://127.0.0.1:${port}`,
    async waitFor(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} emails, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    openConnections: () => open,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
