import { z } from "zod";

/** RFC 5321 caps an address at 254 characters; nobody's passphrase needs more than 256. */
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 256;
export const PASSWORD_MIN = 10;

export const LOGIN_REQUIRED_MESSAGE = "Please enter both email and password";
export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password";
export const LOGIN_FAILED_MESSAGE = "An error occurred during login";

const requiredTrimmed = (max: number, tooLong: string) =>
  z
    .string({ error: LOGIN_REQUIRED_MESSAGE })
    .refine((value) => value.trim().length > 0, LOGIN_REQUIRED_MESSAGE)
    .refine((value) => value.length <= max, tooLong);

/** Blankness is judged on trimmed values (SPEC §5); the password itself is used exactly as typed. */
export const loginSchema = z.object({
  email: requiredTrimmed(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`).transform((value) => value.trim()),
  password: requiredTrimmed(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
});

export type LoginInput = z.infer<typeof loginSchema>;

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
