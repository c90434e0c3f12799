// The change feed's tables that only admin sessions may stream: the server refuses them to anyone
// else, and the dashboard listens to them. One list, so the two cannot disagree.
export const ADMIN_ONLY_TABLES = [
  "clients",
  "captured_payments",
  "leads",
  "content_requests",
  "provisioning_jobs",
  "whatsapp_messages",
  "outbox",
] as const;
