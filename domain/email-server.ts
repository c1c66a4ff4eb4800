import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";

/** How the connection to the mail server is protected, in the words of most providers' help pages. */
export const EMAIL_SECURITIES = ["starttls", "tls", "none"] as const;
export type EmailSecurity = (typeof EMAIL_SECURITIES)[number];

export const EMAIL_SECURITY_LABELS: Record<EmailSecurity, string> = {
  starttls: "STARTTLS (usually port 587)",
  tls: "TLS (usually port 465)",
  none: "None (only for a mail server on this machine or network)",
};

export const EMAIL_HOST_MAX = 253;
export const EMAIL_USER_MAX = 320;
export const EMAIL_PASSWORD_MAX = 1000;

const hostMessage = "Enter the mail server's name, such as smtp.example.com";
const portMessage = "Enter a port from 1 to 65535 (587 for STARTTLS, 465 for TLS)";

/** The mail server as the Email settings form sends it; the password stays out of every answer. */
export const emailServerSchema = z.object({
  host: z
    .string()
    .trim()
    .min(1, hostMessage)
    .max(EMAIL_HOST_MAX, hostMessage)
    .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, hostMessage),
  port: z.coerce.number({ error: portMessage }).int(portMessage).min(1, portMessage).max(65_535, portMessage),
  security: z.enum(EMAIL_SECURITIES, { error: "Please choose how the connection is protected" }),
  user: z.string().trim().max(EMAIL_USER_MAX, `The user name must be at most ${EMAIL_USER_MAX} characters`),
  /** Empty: keep the saved password (or none, for a server that asks for none). */
  password: z.string().max(EMAIL_PASSWORD_MAX, `The password must be at most ${EMAIL_PASSWORD_MAX} characters`),
  /** The name beside it is Settings' sender name (domain/site-settings.ts), one name for every email. */
  fromAddress: z.email("Enter the address emails are sent from, such as news@example.com").max(320),
});

export type EmailServerInput = z.infer<typeof emailServerSchema>;

export const emailServerForm = defineForm({
  fields: ["host", "port", "security", "user", "password", "fromAddress"],
  read: (formData: FormData) => ({
    host: formText(formData, "host"),
    port: formText(formData, "port").trim(),
    security: formText(formData, "security"),
    user: formText(formData, "user"),
    // A password is taken as typed: spaces at either end may be part of it.
    password: formText(formData, "password"),
    fromAddress: formText(formData, "fromAddress").trim(),
  }),
  schema: emailServerSchema,
});

/** "Send a test email": to the signed-in writer's address unless another is typed. */
export const testEmailForm = defineForm({
  fields: ["to"],
  read: (formData: FormData) => ({ to: formText(formData, "to").trim() }),
  schema: z.object({
    to: z.union([z.literal(""), z.email("Enter an email address, or leave it empty to use yours")]),
  }),
});

/** What the Email settings screen shows: never the password, only whether one is saved. */
export interface EmailServerView {
  /** "environment": SMTP_URL and MAIL_FROM are set, win, and the fields are read-only. */
  source: "environment" | "settings";
  host: string;
  port: number;
  security: EmailSecurity;
  user: string;
  passwordSaved: boolean;
  fromAddress: string;
  /** When a test email last went through with these settings; email is on from then. */
  testedAt: string | null;
  /** Email goes out: set by the environment, or saved here and tested. */
  on: boolean;
}

export const EMAIL_SET_BY_ENVIRONMENT_MESSAGE =
  "Email is set by the server's environment (SMTP_URL and MAIL_FROM), which wins over these settings.";

/**
 * The mail server as the settings store keeps it (server/newsletter/email-server.ts): the form's
 * fields with the password sealed, and when a test email last went through with them.
 */
export const storedEmailServerSchema = emailServerSchema
  .omit({ password: true, host: true, fromAddress: true })
  .extend({
    /** Empty until the form is saved. */
    host: z.string(),
    fromAddress: z.string(),
    /** AES-256-GCM under the server's secret; empty: no password. */
    passwordSealed: z.string(),
    testedAt: z.string().nullable(),
  });

export type StoredEmailServer = z.infer<typeof storedEmailServerSchema>;

export const EMPTY_EMAIL_SERVER: StoredEmailServer = {
  host: "",
  port: 587,
  security: "starttls",
  user: "",
  passwordSealed: "",
  fromAddress: "",
  testedAt: null,
};
