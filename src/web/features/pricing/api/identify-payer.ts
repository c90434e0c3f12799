// POST /api/payments/identify: is this number (or e-mail address) already a client's? If so the
// server sends a one-time code to that client's own recorded channels, and the review step asks
// for it before the payment goes on their account (issue 24; server: lib/identity.ts).
import type { IdentifyResponse } from "@/shared/schemas";
import { apiSend } from "@/web/lib/api";

export function identifyPayer(contact: { whatsapp: string; email?: string }): Promise<IdentifyResponse> {
  return apiSend<IdentifyResponse>("POST", "/payments/identify", { whatsapp: contact.whatsapp, email: contact.email ?? "" });
}
