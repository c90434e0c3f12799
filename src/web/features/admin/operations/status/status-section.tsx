// /admin/status: what the public status page shows, and the controls behind it: run the health
// check now, put a component under maintenance, open, update and resolve incidents, schedule maintenance.
import { Activity } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../../components/admin-page-header";
import { formatDateTime } from "../../components/format";
import { useRunStatusCheck } from "./api/run-status-check";
import { ComponentsPanel } from "./components-panel";
import { IncidentsPanel } from "./incidents-panel";
import { MaintenancePanel } from "./maintenance-panel";

export function StatusSection() {
  const check = useRunStatusCheck();
  const run = () =>
    check.mutate(undefined, {
      onSuccess: (answer) =>
        toast.success("Health check done", {
          description: answer.checked_at ? `Checked ${formatDateTime(answer.checked_at)}.` : "The components are up to date.",
        }),
      onError: (error) => toast.error("Health check failed", { description: error.message }),
    });
  return (
    <>
      <AdminPageHeader
        title="System status"
        description="What visitors see on the status page. The monitor checks every component on its own; run it now after a fix."
        actions={
          <Button onClick={run} disabled={check.isPending}>
            <Activity aria-hidden="true" className={check.isPending ? "animate-pulse" : undefined} />
            {check.isPending ? "Checking..." : "Run health check"}
          </Button>
        }
      />
      <div className="flex flex-col gap-10">
        <ComponentsPanel />
        <IncidentsPanel />
        <MaintenancePanel />
      </div>
    </>
  );
}
