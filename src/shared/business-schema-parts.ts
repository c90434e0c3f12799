// The building blocks of the business dashboard's schemas (business-schemas.ts and its siblings):
// capped text, optional contacts, ids, flags, usernames and amounts in rand.
import { z } from "zod";
import { isValidEmail, isValidPhone } from "./contact";
import { DEVICES, type DeviceValue } from "./options";
import { isSouthAfricanWhatsApp } from "./whatsapp";

export const tooLong = (what: string, max: number) => `${what} must be ${max} characters or fewer`;

export const text = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(max, tooLong(what, max));
export const requiredText = (empty: string, what: string, max: number) =>
  z.string({ error: empty }).trim().min(1, empty).max(max, tooLong(what, max));

/** An e-mail address or '' (none). */
export const optionalEmail = text("Email address", 254).refine((v) => v === "" || isValidEmail(v), "Please enter a valid email address");
/** A phone number in any common form, or '' (none). */
export const optionalPhone = text("WhatsApp number", 30).refine(
  (v) => v === "" || (isValidPhone(v) && isSouthAfricanWhatsApp(v)),
  "Please enter a valid WhatsApp number",
);

export const uuid = (message: string) => z.uuid({ error: message });
export const flag = (what: string) => z.boolean({ error: `${what} must be yes or no` });

export const dateTime = (what: string) =>
  z.iso.datetime({ offset: true, error: `${what} must be a date and time with a time zone, e.g. 2026-11-22T14:05:00+02:00` });

/** Usernames: what a person types on a phone keyboard without surprises. Stored lower-case. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{2,39}$/;
export const USERNAME_MESSAGE =
  "Usernames are 3-40 characters: letters, numbers, dots, dashes or underscores, starting with a letter or number";
export const username = z.string({ error: "Please enter a username" }).trim().toLowerCase().regex(USERNAME_PATTERN, USERNAME_MESSAGE);

// '' is "not chosen", as on the order form.
export const DEVICE_CHOICES = ["", ...DEVICES.map((d) => d.value)] as ["", ...DeviceValue[]];

/** Rand amount above zero with at most two decimals; numeric strings from inputs are accepted. */
export const positiveMoney = (what: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${what} must be an amount in rand` })
      .positive(`${what} must be more than R0`)
      .max(1_000_000, `${what} must be R1,000,000 or less`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${what} can have at most two decimals (cents)`),
  );
