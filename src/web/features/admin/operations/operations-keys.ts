// Query keys of the operations sections: each list under ["admin", <table it reads>], so the
// change feed refetches it when a row of that table changes (admin-keys.ts explains the rule).
export const opsKeys = {
  contentRequests: ["admin", "content_requests"],
  notices: ["admin", "notices"],
  components: ["admin", "system_components"],
  /** the public status page's data (90-day history per component), read for the admin's view */
  statusHistory: ["admin", "status_checks"],
  incidents: ["admin", "incidents"],
  /** scheduled maintenance: rows of incidents too, so the table's changes refresh it */
  maintenance: ["admin", "incidents", "maintenance"],
  outbox: ["admin", "outbox"],
  kb: ["admin", "kb_articles"],
  releases: ["admin", "releases"],
  audit: ["admin", "audit_log"],
  /** POPIA s24 correction and erasure requests (issue 46 item 7) */
  dataRequests: ["admin", "data_requests"],
} as const;
