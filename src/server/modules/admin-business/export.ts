// GET /api/admin/export/{leads,clients,payments}.csv: exactly the rows the list shows with the
// same filters and sort, every page. Streaming-line secrets (line password) are not exported.
import { saDay } from "@/shared/dates";
import type { listClients } from "./client-service";
import { type CsvColumn, toCsv } from "./csv";
import type { listLeads } from "./lead-service";
import type { listPayments } from "./payment-service";

type LeadRow = Awaited<ReturnType<typeof listLeads>>["data"][number];
type ClientRow = Awaited<ReturnType<typeof listClients>>["data"][number];
type PaymentRow = Awaited<ReturnType<typeof listPayments>>["data"][number];

export const leadColumns: CsvColumn<LeadRow>[] = [
  { header: "id", value: (r) => r.id },
  { header: "created_at", value: (r) => r.created_at },
  { header: "form_type", value: (r) => r.form_type },
  { header: "status", value: (r) => r.status },
  { header: "name", value: (r) => r.name },
  { header: "email", value: (r) => r.email },
  { header: "whatsapp", value: (r) => r.whatsapp },
  { header: "package_name", value: (r) => r.package_name },
  { header: "package_price", value: (r) => r.package_price },
  { header: "duration", value: (r) => r.duration },
  { header: "device", value: (r) => r.device },
  { header: "internet_platform", value: (r) => r.internet_platform },
  { header: "other_platform", value: (r) => r.other_platform },
  { header: "internet_speed", value: (r) => r.internet_speed },
  { header: "communication_method", value: (r) => r.communication_method },
  { header: "marketing_opt_in", value: (r) => r.marketing_opt_in },
  { header: "client_id", value: (r) => r.client_id },
  { header: "notes", value: (r) => r.notes },
];

export const clientColumnsCsv: CsvColumn<ClientRow>[] = [
  { header: "id", value: (r) => r.id },
  { header: "created_at", value: (r) => r.created_at },
  { header: "username", value: (r) => r.username },
  { header: "full_name", value: (r) => r.full_name },
  { header: "email", value: (r) => r.email },
  { header: "whatsapp", value: (r) => r.whatsapp },
  { header: "communication_method", value: (r) => r.communication_method },
  { header: "status", value: (r) => r.status },
  { header: "package_name", value: (r) => r.package_name },
  { header: "subscription_start", value: (r) => r.subscription_start },
  { header: "subscription_end", value: (r) => r.subscription_end },
  { header: "device", value: (r) => r.device },
  { header: "internet_platform", value: (r) => r.internet_platform },
  { header: "marketing_opt_in", value: (r) => r.marketing_opt_in },
  { header: "notes", value: (r) => r.notes },
];

export const paymentColumnsCsv: CsvColumn<PaymentRow>[] = [
  { header: "id", value: (r) => r.id },
  { header: "created_at", value: (r) => r.created_at },
  { header: "paid_at", value: (r) => r.paid_at },
  { header: "provider", value: (r) => r.provider },
  { header: "reference", value: (r) => r.external_transaction_id },
  { header: "provider_reference", value: (r) => r.provider_reference },
  { header: "status", value: (r) => r.status },
  { header: "amount", value: (r) => r.amount.toFixed(2) },
  { header: "currency", value: (r) => r.currency },
  { header: "package_name", value: (r) => r.package_name },
  { header: "client_username", value: (r) => r.client_username },
  { header: "client_full_name", value: (r) => r.client_full_name },
  { header: "client_email", value: (r) => r.client_email },
  { header: "notes", value: (r) => r.notes },
];

/** The reply's headers and body for a CSV download named '<name>-<SA day>.csv'. */
export function csvDownload<T>(name: string, columns: CsvColumn<T>[], rows: T[], now = new Date()) {
  return {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}-${saDay(now)}.csv"`,
      "cache-control": "no-store",
    },
    body: toCsv(columns, rows),
  };
}
