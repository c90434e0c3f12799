// GET /api/admin/admins → {data: [{id, email, name, created_at, updated_at}]}, by email.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "@/web/lib/api";

export interface AdminAccount {
  id: string;
  email: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export const adminsKey = ["admin", "admins"] as const;

export async function getAdmins(signal?: AbortSignal): Promise<AdminAccount[]> {
  const answer = await apiGet<{ data: AdminAccount[] }>("/admin/admins", { signal });
  return answer.data;
}

export const adminsQuery = queryOptions({
  queryKey: [...adminsKey, "list"],
  queryFn: ({ signal }) => getAdmins(signal),
});

export function useAdmins() {
  return useQuery(adminsQuery);
}
