import type { Kysely } from "kysely";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import {
  EMAIL_SET_BY_ENVIRONMENT_MESSAGE,
  type EmailServerInput,
  type EmailServerView,
  EMPTY_EMAIL_SERVER,
  type StoredEmailServer,
  storedEmailServerSchema,
} from "#domain/email-server.ts";
import { DomainError } from "#domain/errors.ts";
import type { Actor, AuditLog } from "../accounts/index.ts";
import type { MailConfig } from "../kernel/config.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { RateLimiter, RateLimitPolicy } from "../kernel/rate-limit.ts";
import { createSecretBox } from "../kernel/secret-box.ts";
import type { SettingsStore } from "../kernel/settings-store.ts";
import { emailServerRecord } from "./repositories/email-server.ts";
import { describeSmtpFailure } from "./smtp-failures.ts";

/** How the blog reaches its mail server now: the environment's, or the one saved on Settings → Email. */
export interface MailTransport {
  /** Names this connection: a mailer holding a pool built for another key closes it and builds anew. */
  key: string;
  options: SMTPTransport.Options;
  fromAddress: string;
}

/** A test email waits no longer than this for the mail server, so the writer hears back in time. */
const TEST_TIMEOUT_MS = 10_000;
const TEST_LIMIT: RateLimitPolicy = { maxHits: 10, windowMs: 10 * 60 * 1000 };

/**
 * The blog's mail server (docs/decisions/0030-email-from-the-admin.md): SMTP_URL and MAIL_FROM
 * when the environment sets them, which win; otherwise the server saved on Settings → Email, its
 * password sealed under the server's secret. Email is on once a test email went through with the
 * saved settings. A group of the settings store, so every app server sees a save within a second
 * (`onChange`) and the outbox's mailer builds its pool anew.
 */
export function createEmailServer({
  db,
  now,
  settingsStore,
  secret,
  environment,
  alwaysOn = false,
  audit,
  limiter,
}: {
  db: Kysely<Database>;
  now: () => Date;
  settingsStore: SettingsStore;
  /** The server's secret, from which the password's key is derived. */
  secret: string;
  /** SMTP_URL and MAIL_FROM: when set, these are the mail server and the screen's fields are read-only. */
  environment: MailConfig | undefined;
  /** Tests that queue email without a mail server: email counts as on. */
  alwaysOn?: boolean;
  audit: AuditLog;
  limiter: RateLimiter;
}) {
  const box = createSecretBox(secret, "email-server-password");
  const settings = settingsStore.define<StoredEmailServer>({
    key: "email-server",
    schema: storedEmailServerSchema,
    defaults: EMPTY_EMAIL_SERVER,
    record: emailServerRecord(db),
  });

  function transportOf(stored: StoredEmailServer): MailTransport | undefined {
    if (environment) {
      return { key: "environment", options: { url: environment.smtpUrl }, fromAddress: environment.fromAddress };
    }
    if (stored.host === "" || stored.fromAddress === "") return undefined;
    const password = stored.passwordSealed === "" ? "" : box.open(stored.passwordSealed);
    // Sealed under another secret (SESSION_SECRET changed): unusable until the password is typed again.
    if (password === undefined) return undefined;
    const { host, port, security, user, passwordSealed, fromAddress } = stored;
    return {
      key: JSON.stringify([host, port, security, user, passwordSealed, fromAddress]),
      options: {
        host: stored.host,
        port: stored.port,
        secure: stored.security === "tls",
        requireTLS: stored.security === "starttls",
        ignoreTLS: stored.security === "none",
        ...(stored.user === "" ? {} : { auth: { user: stored.user, pass: password } }),
      },
      fromAddress: stored.fromAddress,
    };
  }

  const isOnWith = (stored: StoredEmailServer) =>
    environment !== undefined || alwaysOn || (stored.testedAt !== null && transportOf(stored) !== undefined);

  /** What a test and the mailer's pool connect to: host and port as the writer would name them. */
  function whereOf(options: SMTPTransport.Options): { host: string; port: number } {
    if (options.url) {
      const url = new URL(options.url);
      return { host: url.hostname, port: Number(url.port) || (url.protocol === "smtps:" ? 465 : 587) };
    }
    return { host: options.host ?? "", port: Number(options.port ?? 587) };
  }

  return {
    /** Whether email goes out, read at most once a second: subscriptions, reply emails and the editor's box follow it. */
    async isOn(): Promise<boolean> {
      return environment !== undefined || alwaysOn || isOnWith(await settings.read());
    },

    /** The same, from what this server last read (its settings worker reads every second). */
    isOnNow(): boolean {
      return environment !== undefined || alwaysOn || isOnWith(settings.lastRead());
    },

    /** The connection the outbox sends through now; undefined while email is off. */
    async transport(): Promise<MailTransport | undefined> {
      const stored = await settings.read();
      return isOnWith(stored) ? transportOf(stored) : undefined;
    },

    /** Hears each change of the saved mail server, on this server or, within a second, another's. */
    onChange(listener: () => void): () => void {
      return settings.onChange(() => listener());
    },

    /** What Settings → Email shows: never the password, only whether one is saved. */
    async describe(): Promise<EmailServerView> {
      const stored = await settings.read();
      if (environment) {
        const url = new URL(environment.smtpUrl);
        return {
          source: "environment",
          ...whereOf({ url: environment.smtpUrl }),
          security: url.protocol === "smtps:" ? "tls" : "starttls",
          user: decodeURIComponent(url.username),
          passwordSaved: url.password !== "",
          fromAddress: environment.fromAddress,
          testedAt: stored.testedAt,
          on: true,
        };
      }
      const { passwordSealed, ...shown } = stored;
      return { source: "settings", ...shown, passwordSaved: passwordSealed !== "", on: isOnWith(stored) };
    },

    /**
     * Saves the mail server. An empty password keeps the saved one (none without a user name).
     * A change of how the blog connects waits for a new test email before email is on again.
     */
    async save(actor: Actor, input: EmailServerInput): Promise<void> {
      if (environment) throw new DomainError("EMAIL_SET_BY_ENVIRONMENT", EMAIL_SET_BY_ENVIRONMENT_MESSAGE);
      const previous = await settings.readFresh();
      const { password, ...fields } = input;
      const passwordSealed = input.user === "" ? "" : password === "" ? previous.passwordSealed : box.seal(password);
      const next: StoredEmailServer = { ...fields, passwordSealed, testedAt: null };
      const sameConnection = transportOf(next)?.key === transportOf(previous)?.key;
      await settings.save({ ...next, testedAt: sameConnection ? previous.testedAt : null });
      await audit.record(actor, "settings-changed", "the mail server");
    },

    /**
     * Sends one email to `to` at once, not through the outbox: the writer waits for the mail
     * server's answer, which a refusal carries in plain words (EMAIL_TEST_FAILED). A test that
     * went through turns email on, unless the settings changed meanwhile.
     */
    async sendTest(userId: string, to: string, sender: { name: string }): Promise<void> {
      // Each test reaches out to a server the writer named: a few a minute are plenty.
      await limiter.consume(`email-test:${userId}`, TEST_LIMIT);
      const stored = await settings.readFresh();
      const transport = transportOf(stored);
      if (!transport) {
        throw new DomainError(
          "EMAIL_TEST_FAILED",
          stored.passwordSealed !== "" && stored.host !== ""
            ? "The saved password cannot be read since the server's secret changed. Type the password again and save."
            : "Save the mail server's settings first.",
        );
      }
      const { default: nodemailer } = await import("nodemailer");
      const connection = nodemailer.createTransport({
        ...transport.options,
        connectionTimeout: TEST_TIMEOUT_MS,
        greetingTimeout: TEST_TIMEOUT_MS,
        socketTimeout: TEST_TIMEOUT_MS,
      });
      try {
        await connection.sendMail({
          from: { name: sender.name, address: transport.fromAddress },
          to,
          subject: `A test email from ${sender.name}`,
          text: `This is a test email from ${sender.name}. The blog can send email: readers can subscribe now.\n`,
        });
      } catch (error) {
        throw new DomainError("EMAIL_TEST_FAILED", describeSmtpFailure(error, whereOf(transport.options), to), {
          cause: error,
        });
      } finally {
        connection.close();
      }
      const latest = await settings.readFresh();
      if (transportOf(latest)?.key === transport.key) await settings.save({ ...latest, testedAt: now().toISOString() });
    },
  };
}

export type EmailServer = ReturnType<typeof createEmailServer>;
