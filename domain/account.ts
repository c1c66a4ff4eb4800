import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";

/** RFC 5321 caps an address at 254 characters; nobody's passphrase needs more than 256. */
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 256;
export const PASSWORD_MIN = 10;

export const LOGIN_REQUIRED_MESSAGE = "Please enter both email and password";
export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password";
export const LOGIN_FAILED_MESSAGE = "An error occurred during login";

/** A sign-in step refused while locked (429): in minutes, or in hours once it is that long. */
export function tooManySignInAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const wait = minutes > 90 ? `${Math.ceil(minutes / 60)} hours` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `Too many failed sign-in attempts. Please try again in ${wait}.`;
}

const requiredTrimmed = (max: number, tooLong: string) =>
  z
    .string({ error: LOGIN_REQUIRED_MESSAGE })
    .refine((value) => value.trim().length > 0, LOGIN_REQUIRED_MESSAGE)
    .refine((value) => value.length <= max, tooLong);

/** Blankness is judged on trimmed values (docs/spec.md §5); the password itself is used exactly as typed. */
export const loginSchema = z.object({
  email: requiredTrimmed(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`).transform((value) => value.trim()),
  password: requiredTrimmed(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
});

export type LoginInput = z.infer<typeof loginSchema>;

export const loginForm = defineForm({
  fields: ["email", "password"],
  read: (formData: FormData) => ({ email: formText(formData, "email"), password: formText(formData, "password") }),
  schema: loginSchema,
});

/** The rule for a new admin password, wherever one is set: setup link, CLI. */
export const adminPasswordSchema = z
  .string({ error: `Password must be at least ${PASSWORD_MIN} characters` })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** The first admin, created through the one-time setup link. */
export const setupSchema = z
  .object({
    email: z
      .string({ error: "Please enter an email address" })
      .trim()
      .min(1, "Please enter an email address")
      .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
      .pipe(z.email("Please enter a valid email address")),
    password: adminPasswordSchema,
    confirmPassword: z.string({ error: "Please repeat the password" }),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: "The passwords do not match",
    path: ["confirmPassword"],
  });

export type SetupInput = z.infer<typeof setupSchema>;

export const setupForm = defineForm({
  fields: ["email", "password", "confirmPassword"],
  read: (formData: FormData) => ({
    email: formText(formData, "email"),
    password: formText(formData, "password"),
    confirmPassword: formText(formData, "confirmPassword"),
  }),
  schema: setupSchema,
});

/** What the account and Users forms say when the database is out of reach: the change can simply be tried again. */
export const ACCOUNT_FAILED_MESSAGES = { DATABASE_UNAVAILABLE: "That did not work. Please try again." } as const;

/** A form post naming no action the page offers: only a forged or stale post gets this. */
export const UNKNOWN_ACTION_MESSAGE = "Unknown action";

export const ROLES = ["owner", "editor"] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", editor: "Editor" };

export const DISPLAY_NAME_MAX = 80;

/** The two views of a Markdown body (docs/decisions/0032); the account keeps the last chosen. */
export const WRITING_VIEWS = ["markdown", "visual"] as const;
export type WritingView = (typeof WRITING_VIEWS)[number];
export const toWritingView = (stored: string): WritingView => (stored === "visual" ? "visual" : "markdown");
/** An invitation link works for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;
/** A password reset link works for an hour, once. */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

const emailField = z
  .string({ error: "Please enter an email address" })
  .trim()
  .min(1, "Please enter an email address")
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email("Please enter a valid email address"));

const displayNameField = z
  .string({ error: "Please enter a display name" })
  .trim()
  .min(1, "Please enter a display name")
  .max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`);

/** The owner invites someone by email; the link is what reaches them. */
export const inviteForm = defineForm({
  fields: ["email"],
  read: (formData: FormData) => ({ email: formText(formData, "email") }),
  schema: z.object({ email: emailField }),
});

/** The view the writer just picked in the editor, kept for every browser they write in. */
export const writingViewForm = defineForm({
  fields: ["view"],
  read: (formData: FormData) => ({ view: formText(formData, "view") }),
  schema: z.object({ view: z.enum(WRITING_VIEWS, { error: "Choose Visual or Markdown" }) }),
});

/** A writer who forgot their password asks for a reset link by address. */
export const forgotPasswordForm = defineForm({
  fields: ["email"],
  read: (formData: FormData) => ({ email: formText(formData, "email") }),
  schema: z.object({ email: emailField }),
});

/** The answer to every reset request, account or not: nobody learns which addresses have one. */
export const RESET_REQUESTED_MESSAGE =
  "If an account uses that address, we have sent it a link to choose a new password.";

/** The new password, chosen from a reset link, twice as at setup. */
export const resetPasswordForm = defineForm({
  fields: ["password", "confirmPassword"],
  read: (formData: FormData) => ({
    password: formText(formData, "password"),
    confirmPassword: formText(formData, "confirmPassword"),
  }),
  schema: z
    .object({ password: adminPasswordSchema, confirmPassword: z.string() })
    .refine((values) => values.password === values.confirmPassword, {
      message: "The passwords do not match",
      path: ["confirmPassword"],
    }),
});

/** The invitee chooses how they appear and their password. */
export const acceptInvitationForm = defineForm({
  fields: ["displayName", "password", "confirmPassword"],
  read: (formData: FormData) => ({
    displayName: formText(formData, "displayName"),
    password: formText(formData, "password"),
    confirmPassword: formText(formData, "confirmPassword"),
  }),
  schema: z
    .object({ displayName: displayNameField, password: adminPasswordSchema, confirmPassword: z.string() })
    .refine((values) => values.password === values.confirmPassword, {
      message: "The passwords do not match",
      path: ["confirmPassword"],
    }),
});

export const changePasswordForm = defineForm({
  fields: ["currentPassword", "newPassword", "confirmPassword"],
  read: (formData: FormData) => ({
    currentPassword: formText(formData, "currentPassword"),
    newPassword: formText(formData, "newPassword"),
    confirmPassword: formText(formData, "confirmPassword"),
  }),
  schema: z
    .object({
      currentPassword: z.string().min(1, "Please enter your current password"),
      newPassword: adminPasswordSchema,
      confirmPassword: z.string(),
    })
    .refine((values) => values.newPassword === values.confirmPassword, {
      message: "The passwords do not match",
      path: ["confirmPassword"],
    }),
});

/** An author as readers see them: under their posts and on their page (docs/decisions/0022). */
export interface Author {
  name: string;
  /** /author/{slug}. */
  slug: string;
  /** Plain text; line breaks kept. */
  bio: string;
  /** The hash of the square picture in the media store; empty: none. */
  avatar: string;
}

/** An author's name and page: what a byline links with. */
export type AuthorLink = Pick<Author, "name" | "slug">;

export const BIO_MAX = 500;
/** The widest an author's address may be: slugs are cut at SLUG_MAX_LENGTH (80) anyway. */
export const AUTHOR_SLUG_MAX = 80;

export const displayNameForm = defineForm({
  fields: ["displayName"],
  read: (formData: FormData) => ({ displayName: formText(formData, "displayName") }),
  schema: z.object({ displayName: displayNameField }),
});

/** How the account appears as an author beyond its name: its page's address (blank: made from the name) and bio. */
export const authorProfileForm = defineForm({
  fields: ["slug", "bio"],
  read: (formData: FormData) => ({ slug: formText(formData, "slug"), bio: formText(formData, "bio") }),
  schema: z.object({
    slug: z
      .string()
      .trim()
      .max(AUTHOR_SLUG_MAX, `Address must be at most ${AUTHOR_SLUG_MAX} characters`)
      .refine((value) => value === "" || /[\p{L}\p{N}]/u.test(value), "Address must contain a letter or a digit"),
    bio: z.string().trim().max(BIO_MAX, `Bio must be at most ${BIO_MAX} characters`),
  }),
});

/** Six digits from the app, or a recovery code (letters and digits, dashes and spaces ignored). */
const codeField = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, "").toLowerCase())
  .refine((value) => value.length > 0, "Please enter a code")
  .refine((value) => value.length <= 32, "That code is not valid");

export const twoFactorCodeForm = defineForm({
  fields: ["code"],
  read: (formData: FormData) => ({ code: formText(formData, "code") }),
  schema: z.object({ code: codeField }),
});

/**
 * The two-factor panel's forms, told apart by `intent`: set up (no fields), confirm with a
 * code from the app, or turn off with the password and a code.
 */
export const twoFactorForm = defineForm({
  fields: ["password", "code"],
  read: (formData: FormData) => ({
    intent: formText(formData, "intent"),
    password: formText(formData, "password"),
    code: formText(formData, "code"),
  }),
  schema: z.discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("start") }),
      z.object({ intent: z.literal("confirm"), code: codeField }),
      z.object({
        intent: z.literal("disable"),
        password: z.string().min(1, "Please enter your password"),
        code: codeField,
      }),
    ],
    { error: UNKNOWN_ACTION_MESSAGE },
  ),
});

/** Signing out one other session (by its id), or all of them. */
export const sessionsForm = defineForm({
  fields: ["id"],
  read: (formData: FormData) => ({ intent: formText(formData, "intent"), id: formText(formData, "id") }),
  schema: z.discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("sign-out-session"), id: z.string().min(1, UNKNOWN_ACTION_MESSAGE) }),
      z.object({ intent: z.literal("sign-out-others") }),
    ],
    { error: UNKNOWN_ACTION_MESSAGE },
  ),
});

/** The owner's buttons on the Users page: revoke an invitation, make an account the owner, remove it. */
export const manageAccountsForm = defineForm({
  fields: ["id"],
  read: (formData: FormData) => ({ intent: formText(formData, "intent"), id: formText(formData, "id") }),
  schema: z.object({
    intent: z.enum(["revoke", "transfer", "remove"], { error: UNKNOWN_ACTION_MESSAGE }),
    id: z.string().min(1, UNKNOWN_ACTION_MESSAGE),
  }),
});
