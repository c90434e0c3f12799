// Query keys of the client portal. Everything a signed-in client reads lives under ["client"],
// so signing out drops it all at once; the session check sits outside that prefix.
export const clientKeys = {
  session: ["client-session"],
  all: ["client"],
  me: ["client", "me"],
  apps: ["client", "apps"],
  specials: ["client", "specials"],
  payments: ["client", "payments"],
  receipt: (reference: string) => ["client", "payments", "receipt", reference],
  contentRequests: ["client", "content-requests"],
  notices: ["client", "notices"],
  invoices: ["client", "invoices"],
  billingDetails: ["client", "billing-details"],
  statusUpdates: ["client", "status-updates"],
  dataRequests: ["client", "data-requests"],
  autoRenew: ["client", "auto-renew"],
} as const;
