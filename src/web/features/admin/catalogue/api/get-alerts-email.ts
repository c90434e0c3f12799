// GET /api/admin/alerts-email → {data: {email, first_admin}}: where the owner's notices and alerts
// go, and the first admin's address they go to while no alert e-mail is set (the settings card
// shows it in the empty field). Its own key: saving a setting does not wait for it.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AlertsEmailView } from "@/shared/owner-alerts";
import { apiGet } from "@/web/lib/api";

export const alertsEmailQuery = queryOptions({
  queryKey: ["admin", "alerts-email"],
  queryFn: ({ signal }) => apiGet<{ data: AlertsEmailView }>("/admin/alerts-email", { signal }),
  select: (answer) => answer.data,
});

export function useAlertsEmail() {
  return useQuery(alertsEmailQuery);
}
