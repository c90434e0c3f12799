// Query key prefixes of the public data, one per endpoint, and the database tables whose
// changes make them stale (the SSE change feed names tables).

export const queryKeys = {
  packages: ["packages"],
  specials: ["specials"],
  banners: ["banners"],
  settings: ["settings"],
  downloads: ["downloads"],
  testimonials: ["testimonials"],
  images: ["images"],
  content: ["content"],
  branding: ["branding"],
  notices: ["notices"],
  status: ["status"],
  kb: ["kb"],
  releases: ["releases"],
  paymentMethods: ["payment-methods"],
  paymentProviders: ["payment-providers"],
  trialAvailability: ["trial-availability"],
} as const;

/** Watched tables a public visitor's queries depend on → the query key prefixes to refetch. */
export const tableQueryKeys: Record<string, readonly (readonly string[])[]> = {
  packages: [queryKeys.packages],
  pricing_specials: [queryKeys.specials],
  banners: [queryKeys.banners],
  // EFT is offered once the bank details in the settings are filled in
  site_settings: [queryKeys.settings, queryKeys.paymentMethods],
  downloads: [queryKeys.downloads],
  testimonials_managed: [queryKeys.testimonials],
  image_registry: [queryKeys.images],
  homepage_content: [queryKeys.content],
  site_branding: [queryKeys.branding],
  notices: [queryKeys.notices],
  system_components: [queryKeys.status],
  status_checks: [queryKeys.status],
  incidents: [queryKeys.status],
  kb_articles: [queryKeys.kb],
  releases: [queryKeys.releases],
};

export const publicTables = Object.keys(tableQueryKeys);

/**
 * Tables the health monitor writes every minute (a check per component, the component's last
 * check): their queries refetch quietly. 'Data Updated' is for changes a visitor would notice,
 * not for the routine heartbeat of the status page.
 */
export const quietTables: ReadonlySet<string> = new Set(["status_checks", "system_components"]);
