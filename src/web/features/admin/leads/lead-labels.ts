import { type AdminLead, LEAD_FORM_TYPES, LEAD_STATUSES } from "@/shared/business-schemas";

export const FORM_TYPE_LABELS: Record<string, string> = {
  order: "Order",
  interest: "Interest",
  "free-trial": "Free trial",
  "trial-again": "Trial asked again",
};

export const LEAD_STATUS_LABELS: Record<string, string> = {
  new: "New",
  contacted: "Contacted",
  converted: "Converted",
  lost: "Lost",
};

export const formTypeOptions = LEAD_FORM_TYPES.map((value) => ({ value, label: FORM_TYPE_LABELS[value] }));
export const leadStatusOptions = LEAD_STATUSES.map((value) => ({ value, label: LEAD_STATUS_LABELS[value] }));

/** The client this lead already is (a returning customer), while it is not converted: converting renews them. */
export const returningClient = (lead: AdminLead) => (lead.client && lead.status !== "converted" ? lead.client : null);
