// Sign-in and accounts: the admin and client logins, the password rule, and a client's content request.
import { z } from "zod";
import { optionalText, requiredText } from "./schema-parts";

// ---- sign-in and accounts ---------------------------------------------------------------

// Passwords are never trimmed (a space may be part of one) and are capped so a huge body
// cannot make the password hash expensive.
const PASSWORD_MAX = 200;
const loginPassword = z.string({ error: "Please enter your password" }).min(1, "Please enter your password").max(PASSWORD_MAX);

/** Spec §5: admin login uses an email and password; no further field rules (any failure is "invalid credentials"). */
export const adminLoginSchema = z.object({
  // Admin emails are stored lower-case; no format check, so a wrong address is just a failed login.
  email: z.string({ error: "Please enter your email" }).trim().toLowerCase().min(1, "Please enter your email").max(254),
  password: loginPassword,
});

/** Spec §5: client login uses a username and password. */
export const clientLoginSchema = z.object({
  username: z.string({ error: "Please enter your username" }).trim().min(1, "Please enter your username").max(100),
  password: loginPassword,
});

export const PASSWORD_MIN = 10;

function characterClasses(v: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(v)).length;
}

/**
 * A new password: at least 10 characters and not all one kind of character. Length does
 * most of the work; the one-kind rule only turns away the forms cracking lists try first —
 * all digits (phone numbers, ID numbers, dates) and one lower-case word — without the
 * heavier composition rules that push people towards 'Password1!'.
 */
export const passwordSchema = z
  .string({ error: "Please enter a password" })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be ${PASSWORD_MAX} characters or fewer`)
  .refine((v) => characterClasses(v) >= 2, "Use a mix of letters, numbers or symbols, not only one kind of character");

export const CONTENT_REQUEST_TYPES = ["channel", "film", "series", "other"] as const;

/** A client's request for a channel, film or series. */
export const contentRequestSchema = z.object({
  request_type: z.enum(CONTENT_REQUEST_TYPES, { error: "Choose channel, film, series or other" }),
  title: requiredText("Please enter a title", "Title", 200),
  details: optionalText("Details", 2000),
});

export type AdminLogin = z.output<typeof adminLoginSchema>;
export type ClientLogin = z.output<typeof clientLoginSchema>;
export type ContentRequestInput = z.output<typeof contentRequestSchema>;
