// Sub-resellers (issue 45): the owner's forms for them, the partner portal's forms, and the
// answers both sides read. One zod schema per form, used by the browser, the server and tests.
import { z } from "zod";
import { isValidEmail } from "./contact";
import { passwordSchema } from "./schemas";
import { isSouthAfricanWhatsApp } from "./whatsapp";

/** A panel username: what XC_VM accepts for a reseller (letters, digits, . _ -), 3 to 30. */
export const RESELLER_USERNAME_RE = /^[A-Za-z0-9_.-]{3,30}$/;

/** A South African WhatsApp number the form may leave empty (a reseller's, a partner's customer's). */
const optionalWhatsApp = z
  .string()
  .trim()
  .max(30)
  .refine((v) => v === "" || isSouthAfricanWhatsApp(v), "Please enter a South African WhatsApp number, e.g. 082 123 4567")
  .optional()
  .default("");

export const newResellerSchema = z.object({
  name: z.string({ error: "Please enter their name" }).trim().min(2, "Please enter their name").max(100, "That name is too long"),
  email: z
    .string({ error: "Please enter their e-mail address" })
    .trim()
    .max(254, "That e-mail address is too long")
    .refine(isValidEmail, "Please enter a valid e-mail address"),
  whatsapp: optionalWhatsApp,
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
  whatsapp: optionalWhatsApp,
  email: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === "" || isValidEmail(v), "Please enter a valid e-mail address")
    .optional()
    .default(""),
  package_id: z.string({ error: "Choose a package" }).uuid("Choose a package"),
});

/** A partner's line as the portal shows it (GET /api/partner/lines and the line's actions). */
export interface PartnerLine {
  id: string;
  name: string;
  whatsapp: string;
  email: string;
  package_name: string;
  cost: number;
  status: string;
  username: string;
  password: string;
  server_url: string;
  expires_at: string | null;
  /** the partner switched it off on the panel (its login stays, for when it is switched on) */
  switched_off: boolean;
  error: string;
  created_at: string;
}

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
  /** owed: a refund's credits the partner had spent already, written down, nothing moved */
  status: "pending" | "done" | "refused" | "failed" | "unknown" | "owed";
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

// ---- credits bought from the shop (item 4) ------------------------------------------------------

/** Most credits one order buys (a panel holds no more than creditTransferSchema allows anyway). */
export const MAX_CREDITS_PER_ORDER = 10_000;
const PRICE_MESSAGE = "Enter a price per credit in rand above R0, e.g. 30 or 27.50";
const rand = (message: string) =>
  z
    .number({ error: message })
    .positive(message)
    .max(100_000, "That price is too high: enter rand per credit")
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, "Prices have at most 2 decimals (cents)");

/**
 * What the owner charges partners for credits: a price per credit, and volume tiers (from
 * `min_credits` up, each credit costs the tier's price). Stored in site_settings as JSON.
 */
export const creditPricingSchema = z
  .object({
    price_per_credit: rand(PRICE_MESSAGE),
    tiers: z
      .array(
        z.object({
          min_credits: z
            .number({ error: "Enter from how many credits the tier starts" })
            .int("A tier starts at a whole number of credits")
            .min(2, "A tier starts at 2 credits or more (1 credit is the base price)")
            .max(MAX_CREDITS_PER_ORDER, `A tier starts at ${MAX_CREDITS_PER_ORDER} credits or fewer`),
          price_per_credit: rand("Enter the tier's price per credit in rand above R0"),
        }),
      )
      .max(10, "At most 10 tiers")
      .optional()
      .default([]),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<number>();
    value.tiers.forEach((tier, i) => {
      if (seen.has(tier.min_credits)) {
        ctx.addIssue({
          code: "custom",
          path: ["tiers", i, "min_credits"],
          message: `Two tiers start at ${tier.min_credits} credits: give each tier its own starting number`,
        });
      }
      seen.add(tier.min_credits);
    });
  });
export type CreditPricing = z.output<typeof creditPricingSchema>;

/** The price of `credits` under `pricing`: the tier with the highest start at or below it, else the base price. */
export function priceCredits(pricing: CreditPricing, credits: number): { unit_price: number; amount: number } {
  const tier = [...pricing.tiers].sort((a, b) => b.min_credits - a.min_credits).find((t) => credits >= t.min_credits);
  const unit = tier ? tier.price_per_credit : pricing.price_per_credit;
  return { unit_price: unit, amount: Math.round(unit * 100 * credits) / 100 };
}

export const creditCheckoutSchema = z.object({
  credits: z
    .number({ error: "Enter how many credits to buy" })
    .int("Credits are whole numbers")
    .min(1, "Buy at least 1 credit")
    .max(MAX_CREDITS_PER_ORDER, `Buy at most ${MAX_CREDITS_PER_ORDER} credits at a time`),
  /** eft, card, or a hosted provider's id (payfast, ozow, yoco) */
  method: z.string({ error: "Choose how to pay" }).trim().min(1, "Choose how to pay").max(20).optional().default("eft"),
});

export interface CreditOffer {
  /** null: the owner has not set a price, so credits cannot be bought yet */
  pricing: CreditPricing | null;
  /** the ways to pay on offer: eft, card, and hosted providers */
  methods: { id: string; name: string }[];
}

export interface CreditOrderView {
  id: string;
  credits: number;
  unit_price: number;
  amount: number;
  status: "pending" | "paid" | "delivered" | "refused" | "failed" | "unknown" | "refunded";
  method: string;
  reference: string;
  error: string;
  created_at: string;
  paid_at: string | null;
  delivered_at: string | null;
}

export interface CreditCheckoutAnswer {
  order: CreditOrderView;
  /** card and hosted providers: where to pay */
  pay_url: string | null;
  /** EFT: the bank details to pay into, with the order's reference */
  bank: { bank_name: string; account_name: string; account_number: string; branch_code: string; account_type: string } | null;
}

/** The owner's network view (item 5): per partner per month. */
export interface NetworkMonth {
  month: string;
  partners: { id: string; name: string; sold: number; given: number; spent: number; lines: number }[];
}
export interface NetworkView {
  months: NetworkMonth[];
  partners: { id: string; name: string; lines: number; credits_bought: number; credits_spent: number }[];
  runway: {
    owner_credits: number | null;
    renewals_due_30d: number;
    renewal_credits_30d: number | null;
    /** what partners are likely to buy in 30 days: their average month of the last three */
    partner_demand_30d: number;
    /** renewals and partner demand together, over 30 days */
    credits_needed_30d: number | null;
    /** days the balance lasts at that rate; null when unknown or nothing is needed */
    days_left: number | null;
    /** the day (YYYY-MM-DD) the credits run out at that rate, within 30 days; null when they last */
    runs_out_on: string | null;
  };
}

/** The dashboard's resellers settings form: the member group and the price list, as typed. */
const RAND_TEXT = /^\d{1,6}(\.\d{1,2})?$/;
export const resellerSettingsFormSchema = z.object({
  member_group_id: z
    .string()
    .trim()
    .refine((v) => v === "" || /^\d{1,9}$/.test(v), "Enter the member group's id (a number)"),
  price_per_credit: z
    .string()
    .trim()
    .refine((v) => v === "" || (RAND_TEXT.test(v) && Number(v) > 0), "Enter a price per credit in rand above R0, e.g. 30 or 27.50"),
  tiers: z.array(
    z.object({
      min_credits: z
        .string()
        .trim()
        .regex(/^\d{1,5}$/, "Enter from how many credits the tier starts"),
      price_per_credit: z
        .string()
        .trim()
        .refine((v) => RAND_TEXT.test(v) && Number(v) > 0, "Enter the tier's price per credit in rand above R0"),
    }),
  ),
});
export type ResellerSettingsForm = z.output<typeof resellerSettingsFormSchema>;

/** The partner's buy-credits form, as typed. */
export const buyCreditsFormSchema = z.object({
  credits: z
    .string()
    .trim()
    .regex(/^[1-9]\d{0,4}$/, "Enter a whole number of credits, 1 or more")
    .refine((v) => Number(v) <= MAX_CREDITS_PER_ORDER, `Buy at most ${MAX_CREDITS_PER_ORDER} credits at a time`),
  method: z.string().min(1, "Choose how to pay"),
});
export type BuyCreditsForm = z.output<typeof buyCreditsFormSchema>;
