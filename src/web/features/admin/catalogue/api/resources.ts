// The catalogue tables over the admin CRUD endpoints (../../api/admin-crud.ts). Each resource's queries live under ["admin", <its table>] so the change feed refreshes them,
// and a write announces itself with the spec's window events (§7) where the public site listens.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListResponse } from "@/shared/api";
import { createAdminRow, deleteAdminRow, listAdminRows, updateAdminRow } from "../../api/admin-crud";

export const CATALOGUE_RESOURCES = {
  packages: { table: "packages", events: ["adminPackageUpdated", "pricingUpdated"] },
  specials: { table: "pricing_specials", events: ["specialsUpdated", "pricingUpdated"] },
  banners: { table: "banners", events: [] },
  downloads: { table: "downloads", events: [] },
  testimonials: { table: "testimonials_managed", events: [] },
  images: { table: "image_registry", events: [] },
  content: { table: "homepage_content", events: [] },
  settings: { table: "site_settings", events: [] },
  "trial-blackout-days": { table: "trial_blackout_days", events: [] },
} as const satisfies Record<string, { table: string; events: readonly string[] }>;

export type CatalogueResource = keyof typeof CATALOGUE_RESOURCES;

/** ["admin", <table>]: the prefix the change feed invalidates for this resource. */
export const resourceKey = (resource: CatalogueResource) => ["admin", CATALOGUE_RESOURCES[resource].table] as const;

/** Tells the open public pages in this browser that prices changed (spec §7). */
export function announceChange(resource: CatalogueResource): void {
  for (const name of CATALOGUE_RESOURCES[resource].events) window.dispatchEvent(new CustomEvent(name));
}

export const resourceListQuery = <T>(resource: CatalogueResource) =>
  queryOptions({
    queryKey: [...resourceKey(resource), "list"],
    queryFn: ({ signal }) => listAdminRows<T>(resource, signal),
    select: (answer: ListResponse<T>) => answer.data,
  });

export function useResourceList<T>(resource: CatalogueResource) {
  return useQuery(resourceListQuery<T>(resource));
}

function useAfterWrite(resource: CatalogueResource) {
  const queryClient = useQueryClient();
  return async () => {
    announceChange(resource);
    await queryClient.invalidateQueries({ queryKey: resourceKey(resource) });
  };
}

export function useCreateResource<T>(resource: CatalogueResource) {
  const afterWrite = useAfterWrite(resource);
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => createAdminRow<T>(resource, body),
    onSuccess: afterWrite,
  });
}

export function useUpdateResource<T>(resource: CatalogueResource) {
  const afterWrite = useAfterWrite(resource);
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: Record<string, unknown> }) => updateAdminRow<T>(resource, id, patch),
    onSuccess: afterWrite,
  });
}

export function useDeleteResource(resource: CatalogueResource) {
  const afterWrite = useAfterWrite(resource);
  return useMutation({
    mutationFn: (id: string) => deleteAdminRow(resource, id),
    onSuccess: afterWrite,
  });
}
