// POST /api/admin/settings {key, value?, description?, is_active?}: an upsert by key, 201 for a
// new key, 200 with only the sent fields changed for an existing one.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { resourceKey } from "./resources";
import type { AdminSetting } from "./types";

export function saveSetting(body: { key: string; value?: string; description?: string; is_active?: boolean }): Promise<AdminSetting> {
  return apiSend<AdminSetting>("POST", "/admin/settings", body);
}

export function useSaveSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSetting,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKey("settings") }),
  });
}
