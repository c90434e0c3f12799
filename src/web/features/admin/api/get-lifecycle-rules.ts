// The lifecycle's rules as the business set them (site settings free_trial_hours and
// grace_days, read through GET /api/admin/settings, the catalogue's own query): how long a new
// trial runs and until when an ended paid term is in grace. Defaults until the settings arrive.
import { useQuery } from "@tanstack/react-query";
import { type LifecycleRules, lifecycleRules } from "@/shared/lifecycle";
import { resourceListQuery } from "../catalogue/api/resources";
import type { AdminSetting } from "../catalogue/api/types";

export function useLifecycleRules(): LifecycleRules {
  const { data } = useQuery(resourceListQuery<AdminSetting>("settings"));
  const active = (data ?? []).filter((s) => s.is_active);
  return lifecycleRules(Object.fromEntries(active.map((s) => [s.key, s.value])));
}
