import type { MailConfig } from "../kernel/config.ts";

/** One message as it leaves: the per-recipient placeholders already filled. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The name shown beside MAIL_FROM's address: Settings' sender name, or the site's title. */
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
  /** Resolves once the SMTP server accepted the message; rejects with a MailerError. */
  send(message: OutgoingMessage): Promise<void>;
  close(): void;
}

const CONNECTIONS = 5;

/**
 * A pooled SMTP transport from SMTP_URL: a few connections kept open and reused, and no more
 * than SMTP_RATE messages a second handed to the server (each app server counts its own).
 * nodemailer loads here, at boot, only on a server that sends email.
 */
export async function createMailer(config: MailConfig): Promise<Mailer> {
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    pool: true,
    url: config.smtpUrl,
    maxConnections: CONNECTIONS,
    // Well inside the outbox's lease, which a batch in flight renews anyway.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    rateLimit: config.rate,
    rateDelta: 1000,
  });
  return {
    rate: config.rate,
    connections: CONNECTIONS,
    async send(message) {
      try {
        const { fromName, ...rest } = message;
        // nodemailer writes (and encodes) the header from the parts, so a name never needs escaping here.
        await transport.sendMail({ ...rest, from: { name: fromName, address: config.fromAddress } });
      } catch (error) {
        throw toMailerError(error);
      }
    },
    close() {
      transport.close();
    },
  };
}

function toMailerError(error: unknown): MailerError {
  if (!(error instanceof Error)) return new MailerError(String(error), false);
  const { responseCode } = error as { responseCode?: number };
  const permanent = typeof responseCode === "number" && responseCode >= 500 && responseCode < 600;
  // The server's answer says what went wrong; the credentials in SMTP_URL never appear in it.
  return new MailerError(error.message, permanent);
}
