// The one CRUD endpoint shape the server gives every admin table
// (src/server/modules/admin-catalogue/crud.ts): GET/POST /api/admin/<path>, PATCH/DELETE
// /api/admin/<path>/:id. Lists answer {data: rows}; POST answers 201 with the row, PATCH the row,
// DELETE {success}. The catalogue (catalogue/api/resources.ts) and the operations sections
// (operations/api) build their hooks on these requests.
import type { ListResponse } from "@/shared/api";
import { apiGet, apiSend } from "@/web/lib/api";

export const adminCrudUrl = (path: string, id?: string) => `/admin/${path}${id ? `/${encodeURIComponent(id)}` : ""}`;

export function listAdminRows<T>(path: string, signal?: AbortSignal): Promise<ListResponse<T>> {
  return apiGet<ListResponse<T>>(adminCrudUrl(path), { signal });
}

export function createAdminRow<T>(path: string, body: unknown): Promise<T> {
  return apiSend<T>("POST", adminCrudUrl(path), body);
}

export function updateAdminRow<T>(path: string, id: string, patch: unknown): Promise<T> {
  return apiSend<T>("PATCH", adminCrudUrl(path, id), patch);
}

export function deleteAdminRow(path: string, id: string): Promise<{ success: true }> {
  return apiSend<{ success: true }>("DELETE", adminCrudUrl(path, id));
}
