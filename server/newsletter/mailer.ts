import type { Transporter } from "nodemailer";
import type { MailConfig } from "../kernel/config.ts";
import type { MailTransport } from "./email-server.ts";

/** One message as it leaves: the per-recipient placeholders already filled. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The name shown beside the From address: Settings' sender name, or the site's title. */
  fromName: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

/**
 * Why SMTP refused a message. `permanent`: a 5xx answer, so the address will not take it however
 * often it is tried; anything else (a 4xx answer, a lost connection, a timeout) may pass later.
 */
export class MailerError extends Error {
  override name = "MailerError";
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.permanent = permanent;
  }
}

export interface Mailer {
  /** Messages per second this mailer hands to SMTP. */
  readonly rate: number;
  /** Connections of the pool: how many messages can be with SMTP at once. */
  readonly connections: number;
  /** Whether a mail server is set up and email is on now; while not, the outbox waits. */
  ready(): Promise<boolean>;
  /** Resolves once the SMTP server accepted the message; rejects with a MailerError. */
  send(message: OutgoingMessage): Promise<void>;
  close(): void;
}

const CONNECTIONS = 5;

/**
 * A pooled SMTP transport to the mail server of the moment (`current`: SMTP_URL, or the one
 * saved on Settings → Email): a few connections kept open and reused, and no more than SMTP_RATE
 * messages a second handed to the server (each app server counts its own). When the mail server
 * changes, the pool is closed and built anew for the next message, without a restart.
 * nodemailer loads on the first message, on a server that sends email.
 */
export function createMailer(
  server: MailConfig | { rate: number; current: () => Promise<MailTransport | undefined> },
): Mailer {
  const { rate } = server;
  // One fixed server (SMTP_URL's, or a test's sink) is a mail server of the moment that never changes.
  const current =
    "current" in server
      ? server.current
      : async (): Promise<MailTransport> => ({
          key: "environment",
          options: { url: server.smtpUrl },
          fromAddress: server.fromAddress,
        });
  let pool: { key: string; transport: Transporter; fromAddress: string } | undefined;

  async function poolFor(transport: MailTransport) {
    const { default: nodemailer } = await import("nodemailer");
    // From here to the return nothing awaits, so messages sent at the same moment share one pool.
    if (pool?.key === transport.key) return pool;
    pool?.transport.close();
    pool = {
      key: transport.key,
      fromAddress: transport.fromAddress,
      transport: nodemailer.createTransport({
        ...transport.options,
        pool: true,
        maxConnections: CONNECTIONS,
        // Well inside the outbox's lease, which a batch in flight renews anyway.
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 60_000,
        rateLimit: rate,
        rateDelta: 1000,
      }),
    };
    return pool;
  }

  return {
    rate,
    connections: CONNECTIONS,
    async ready() {
      return (await current()) !== undefined;
    },
    async send(message) {
      const transport = await current();
      if (!transport) throw new MailerError("Email is off: no mail server is set up.", false);
      const { transport: sender, fromAddress } = await poolFor(transport);
      try {
        const { fromName, ...rest } = message;
        // nodemailer writes (and encodes) the header from the parts, so a name never needs escaping here.
        await sender.sendMail({ ...rest, from: { name: fromName, address: fromAddress } });
      } catch (error) {
        throw toMailerError(error);
      }
    },
    close() {
      pool?.transport.close();
      pool = undefined;
    },
  };
}

function toMailerError(error: unknown): MailerError {
  if (!(error instanceof Error)) return new MailerError(String(error), false);
  const { responseCode } = error as { responseCode?: number };
  const permanent = typeof responseCode === "number" && responseCode >= 500 && responseCode < 600;
  // The server's answer says what went wrong; the credentials of the mail server never appear in it.
  return new MailerError(error.message, permanent);
}
