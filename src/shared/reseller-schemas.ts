// Sub-resellers (issue 45): the owner's forms for them, the partner portal's forms, and the
// answers both sides read. One zod schema per form, used by the browser, the server and tests.
import { z } from "zod";
import { isValidEmail } from "./contact";
import { passwordSchema } from "./schemas";
import { isSouthAfricanWhatsApp } from "./whatsapp";

/** A panel username: what XC_VM accepts for a reseller (letters, digits, . _ -), 3 to 30. */
export const RESELLER_USERNAME_RE = /^[A-Za-z0-9_.-]{3,30}$/;

export const newResellerSchema = z.object({
  name: z.string({ error: "Please enter their name" }).trim().min(2, "Please enter their name").max(100, "That name is too long"),
  email: z
    .string({ error: "Please enter their e-mail address" })
    .trim()
    .max(254, "That e-mail address is too long")
    .refine(isValidEmail, "Please enter a valid e-mail address"),
  whatsapp: z
    .string()
    .trim()
    .max(30)
    .refine((v) => v === "" || isSouthAfricanWhatsApp(v), "Please enter a South African WhatsApp number, e.g. 082 123 4567")
    .optional()
    .default(""),
  /** their username on the panel and for signing in; made from the name when absent */
  username: z
    .string()
    .trim()
    .refine((v) => v === "" || RESELLER_USERNAME_RE.test(v), "3 to 30 letters, digits, dots, dashes or underscores")
    .optional()
    .default(""),
});
export type NewReseller = z.input<typeof newResellerSchema>;

export const creditTransferSchema = z.object({
  credits: z
    .number({ error: "Enter the number of credits" })
    .int("Credits are whole numbers")
    .refine((v) => v !== 0, "Enter a number of credits other than 0")
    .refine((v) => Math.abs(v) <= 100_000, "That is more credits than a panel holds"),
  note: z.string().trim().max(200, "Keep the note under 200 characters").optional().default(""),
});
export type CreditTransferInput = z.input<typeof creditTransferSchema>;

/** The dashboard's credits form: how many to give or take back (its two buttons choose the sign), and a note. */
export const creditAmountSchema = z.object({
  credits: z
    .string()
    .trim()
    .regex(/^[1-9]\d{0,5}$/, "Enter a whole number of credits above 0"),
  note: z.string().trim().max(200, "Keep the note under 200 characters"),
});
export type CreditAmount = z.output<typeof creditAmountSchema>;

export const partnerLoginSchema = z.object({
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
});

export const partnerPasswordSchema = z.object({
  token: z.string().trim().min(1).max(200),
  password: passwordSchema,
});

/** A line a partner sells from their portal (item 3). */
export const partnerLineSchema = z.object({
  name: z.string({ error: "Please enter the customer's name" }).trim().min(2, "Please enter the customer's name").max(100),
  whatsapp: z
    .string()
    .trim()
    .max(30)
    .refine((v) => v === "" || isSouthAfricanWhatsApp(v), "Please enter a South African WhatsApp number, e.g. 082 123 4567")
    .optional()
    .default(""),
  email: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === "" || isValidEmail(v), "Please enter a valid e-mail address")
    .optional()
    .default(""),
  package_id: z.string({ error: "Choose a package" }).uuid("Choose a package"),
});

export const INVALID_PARTNER_LINK_MESSAGE = "This link is invalid or has expired. Ask the business for a new one.";
/** A partner's set-password link works this long. */
export const PARTNER_LINK_TTL_HOURS = 72;
/** Below this many credits the portal warns the partner. */
export const PARTNER_LOW_CREDITS = 3;

export interface ResellerRow {
  id: string;
  name: string;
  email: string;
  whatsapp: string;
  username: string;
  panel_user_id: string | null;
  status: "active" | "suspended";
  /** read from the panel; null when the panel could not be read */
  credits: number | null;
  lines: number;
  customers: number;
  /** when they last bought credits from the owner */
  last_purchase_at: string | null;
  password_set: boolean;
  created_at: string;
}

export interface ResellersList {
  data: ResellerRow[];
  total: number;
  /** the owner's own balance, and why the panel could not be read ('' when it was) */
  owner_credits: number | null;
  panel_error: string;
}

export interface CreditTransfer {
  id: string;
  reseller_id: string;
  credits: number;
  note: string;
  cause: string;
  actor: string;
  status: "pending" | "done" | "refused" | "failed" | "unknown";
  partner_before: number | null;
  partner_after: number | null;
  owner_before: number | null;
  owner_after: number | null;
  error: string;
  created_at: string;
}

export interface PartnerMe {
  name: string;
  username: string;
  email: string;
  credits: number | null;
  low_credits: boolean;
}
