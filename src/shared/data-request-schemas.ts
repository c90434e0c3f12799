// Correction and erasure requests (POPIA s24; issue 46 item 7; docs/architecture.md, "Sessions and
// who may do what"): what the portal's form sends, what the owner's queue sends back, and the words
// both sides show. One schema serves the browser form, the server route and the tests.
import { z } from "zod";
import { clientPatchSchema } from "./business-schemas";

/** How long the shop has to answer: PAIA's 30 days, the usual yardstick for POPIA s24. */
export const DATA_REQUEST_DAYS = 30;

export const DATA_REQUEST_KINDS = ["correction", "erasure"] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];
export const DATA_REQUEST_STATUSES = ["open", "corrected", "refused", "erased"] as const;
export type DataRequestStatus = (typeof DATA_REQUEST_STATUSES)[number];

export const DATA_REQUEST_MESSAGES = {
  kind: "Choose a correction or deletion of your data",
  details: "Say what is wrong (at least 5 characters)",
  correction: "Say what it should say instead",
  tooLong: "At most 1000 characters",
  reason: "Give the client your reason (at least 5 characters)",
  line: "Choose whether their line is left on or switched off",
  changes: "Change at least one detail of the client",
} as const;

const longText = (message: string, min: number) =>
  z.string({ error: message }).trim().min(min, message).max(1000, DATA_REQUEST_MESSAGES.tooLong);

/** POST /api/client/data-requests: a correction (what is wrong, what it should say) or an erasure (why, optional). */
export const dataRequestSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("correction"),
      details: longText(DATA_REQUEST_MESSAGES.details, 5),
      correction: longText(DATA_REQUEST_MESSAGES.correction, 1),
    }),
    z.object({
      kind: z.literal("erasure"),
      details: z.string().trim().max(1000, DATA_REQUEST_MESSAGES.tooLong).default(""),
    }),
  ],
  { error: DATA_REQUEST_MESSAGES.kind },
);
export type DataRequestInput = z.input<typeof dataRequestSchema>;

/** POST /api/admin/data-requests/:id/correct: the client's details as the normal client edit changes them. */
export const dataRequestCorrectSchema = z.object({
  changes: clientPatchSchema,
  /** what the client is told was done; default words when empty */
  note: z.string().trim().max(1000, DATA_REQUEST_MESSAGES.tooLong).default(""),
});

/** POST /api/admin/data-requests/:id/refuse: the reason the client is told. */
export const dataRequestRefuseSchema = z.object({ reason: longText(DATA_REQUEST_MESSAGES.reason, 5) });
export type DataRequestRefuse = z.input<typeof dataRequestRefuseSchema>;

/** POST /api/admin/data-requests/:id/erase: whether the panel line is left on or switched off. */
export const dataRequestEraseSchema = z.object({
  line: z.enum(["keep", "disable"], { error: DATA_REQUEST_MESSAGES.line }),
});
export type DataRequestErase = z.input<typeof dataRequestEraseSchema>;

/** A request as its client sees it. */
export interface DataRequestView {
  id: string;
  kind: DataRequestKind;
  details: string;
  correction: string;
  status: DataRequestStatus;
  due_at: string;
  outcome: string;
  resolved_at: string | null;
  created_at: string;
}

/** A request in the owner's queue. */
export interface AdminDataRequestView extends DataRequestView {
  client_id: string;
  client_name: string;
  /** open past its due date */
  overdue: boolean;
}

/** What erasure keeps, and why: the client is told this, and the privacy page says it. */
export const ERASURE_KEEPS =
  "We keep your invoices, credit notes and payment records (amounts, dates and the invoice's legal details) for five years, because the Tax Administration Act (section 29) requires it; POPIA section 14 allows that. Everything else that names you is removed.";

export const DATA_REQUEST_KIND_LABELS: Record<DataRequestKind, string> = {
  correction: "Correction",
  erasure: "Deletion",
};

export const DATA_REQUEST_STATUS_LABELS: Record<DataRequestStatus, string> = {
  open: "Open",
  corrected: "Corrected",
  refused: "Refused",
  erased: "Erased",
};

/** The client details the owner's queue corrects in one step (the normal client edit does the rest). */
export const CORRECTABLE_FIELDS = [
  "full_name",
  "email",
  "whatsapp",
  "billing_company",
  "billing_address",
  "billing_vat_number",
  "notes",
] as const;
export const CORRECTABLE_FIELD_LABELS: Record<(typeof CORRECTABLE_FIELDS)[number], string> = {
  full_name: "Full name",
  email: "E-mail address",
  whatsapp: "WhatsApp number",
  billing_company: "Company on invoices",
  billing_address: "Address on invoices",
  billing_vat_number: "VAT number on invoices",
  notes: "Notes",
};

/** The queue's correction form: one detail and its corrected value, and what the client is told. */
export const dataRequestCorrectFormSchema = z.object({
  field: z.enum(CORRECTABLE_FIELDS, { error: "Choose the detail to correct" }),
  value: z.string().trim().max(2000, "At most 2000 characters"),
  note: z.string().trim().max(1000, DATA_REQUEST_MESSAGES.tooLong),
});
export type DataRequestCorrectForm = z.input<typeof dataRequestCorrectFormSchema>;
