// A client's line on the IPTV panel, as staff see it: the login (password hidden until asked),
// the server, the expiry and on/off state as the panel reported them, TEST LINE for a sandbox
// line, what the nightly sync found different, and this client's latest panel jobs. A box's line
// (MAG / Enigma2) shows its MAC with the owner's tool to set or change it.
import { Pencil, Router, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { AdminClient } from "@/shared/business-schemas";
import { isLineType, LINE_TYPE_LABELS, needsMac } from "@/shared/device-lines";
import { useRevealToggle } from "@/web/components/reveal-toggle";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { CopyButton } from "@/web/components/ui/copy-button";
import { cn } from "@/web/lib/cn";
import { formatDateTime } from "../components/format";
import { useProvisioningJobs } from "../panel/api/get-provisioning-jobs";
import { JobRows } from "../panel/provisioning-jobs";

const LATEST_JOBS = 5;

export function LineCard({ client, onEdit, onMac }: { client: AdminClient; onEdit: () => void; onMac: () => void }) {
  const hasLine = Boolean(client.line_username || client.panel_line_id);
  return (
    <div className="flex flex-col gap-4" data-testid="line-card">
      {hasLine ? (
        <div className="flex flex-wrap items-center gap-2">
          {client.line_is_test ? (
            <Badge variant="warn" data-testid="test-line">
              Test line
            </Badge>
          ) : null}
          <Badge variant={client.line_enabled ? "ok" : "neutral"}>{client.line_enabled ? "Switched on" : "Switched off"}</Badge>
        </div>
      ) : null}
      {client.line_sync_issue ? (
        <p role="alert" className="flex items-start gap-2 rounded-xl border border-warn/50 bg-warn/10 px-3 py-2.5 text-sm text-ink">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn" />
          <span className="min-w-0 break-words">
            <span className="font-semibold">The panel disagrees: </span>
            {client.line_sync_issue}
          </span>
        </p>
      ) : null}
      <DeviceFacts client={client} onMac={onMac} />
      {hasLine ? (
        <LineFacts client={client} />
      ) : (
        <div className="flex flex-col items-start gap-3 text-sm text-ink-muted">
          <p>
            No line yet. The panel makes one as soon as {client.full_name} pays or starts a trial, and they get the login at once. Made one
            by hand? Add its login.
          </p>
          <Button variant="outline" size="sm" onClick={onEdit}>
            <Pencil aria-hidden="true" />
            Add line details
          </Button>
        </div>
      )}
      <ClientJobs clientId={client.id} />
    </div>
  );
}

/**
 * The device the line is for (issue 32): an app's login, or a box with its MAC and the owner's
 * tool to set or change it (line-mac-dialog.tsx). An app's line offers "Make it a box's" only
 * while no line is on the panel.
 */
function DeviceFacts({ client, onMac }: { client: AdminClient; onMac: () => void }) {
  const box = needsMac(client.line_type);
  const type = isLineType(client.line_type) ? client.line_type : "m3u";
  if (!box && client.panel_line_id) return null;
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-surface-raised px-3 py-2"
      data-testid="line-device"
    >
      <div className="min-w-0 text-sm text-ink">
        <p className="text-xs text-ink-subtle">Device</p>
        <p>
          {LINE_TYPE_LABELS[type]}
          {box ? (
            <>
              {" · "}
              {client.line_mac ? (
                <span className="font-mono">{client.line_mac}</span>
              ) : (
                <span className="font-semibold text-bad">no MAC address yet</span>
              )}
            </>
          ) : null}
        </p>
      </div>
      <Button variant="outline" size="sm" onClick={onMac}>
        <Router aria-hidden="true" />
        {box ? (client.line_mac ? "Change MAC" : "Set MAC") : "Set up for a box"}
      </Button>
    </div>
  );
}

function LineFacts({ client }: { client: AdminClient }) {
  const [shown, toggle] = useRevealToggle("line password");
  return (
    <ul className="grid gap-2 sm:grid-cols-2">
      <Item label="Username" copy={client.line_username} copyLabel="Line username">
        <span className="font-mono break-all">{client.line_username || "Not set"}</span>
      </Item>
      <Item label="Password" copy={client.line_password} copyLabel="Line password" extra={client.line_password ? toggle : null}>
        <span className="font-mono break-all" data-testid="line-password">
          {client.line_password ? (shown ? client.line_password : "•".repeat(Math.min(12, client.line_password.length))) : "Not set"}
        </span>
      </Item>
      <Item label={client.line_type === "mag" ? "Portal URL" : "Server"} copy={client.line_portal_url} copyLabel="Line server URL" wide>
        {client.line_portal_url ? (
          <span className="font-mono break-all">{client.line_portal_url}</span>
        ) : (
          <span className="text-ink-subtle">Not set</span>
        )}
      </Item>
      <Item label="Expires (as the panel says)">
        {client.line_expires_at ? formatDateTime(client.line_expires_at) : <span className="text-ink-subtle">Not reported</span>}
      </Item>
      <Item label="Panel line id">
        <span className="font-mono break-all">{client.panel_line_id ?? "—"}</span>
      </Item>
    </ul>
  );
}

function Item({
  label,
  copy,
  copyLabel,
  extra,
  wide,
  children,
}: {
  label: string;
  copy?: string;
  copyLabel?: string;
  extra?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <li
      className={cn(
        "flex min-h-14 items-center justify-between gap-2 rounded-xl border border-line bg-surface-raised px-3 py-2",
        wide && "sm:col-span-2",
      )}
    >
      <div className="min-w-0 text-sm text-ink">
        <p className="text-xs text-ink-subtle">{label}</p>
        {children}
      </div>
      {extra || copy ? (
        <div className="flex shrink-0 items-center gap-1">
          {extra}
          {copy && copyLabel ? <CopyButton value={copy} label={copyLabel} /> : null}
        </div>
      ) : null}
    </li>
  );
}

function ClientJobs({ clientId }: { clientId: string }) {
  const { data, error } = useProvisioningJobs();
  const jobs = data?.filter((j) => j.client_id === clientId).slice(0, LATEST_JOBS);
  return (
    <section aria-labelledby="client-panel-jobs" className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 id="client-panel-jobs" className="text-sm font-semibold text-ink">
          Panel jobs
        </h3>
        <Link to="/admin/panel" className="inline-flex min-h-11 items-center text-sm text-accent-ink hover:underline">
          All panel jobs
        </Link>
      </div>
      {error ? (
        <p className="text-sm text-bad">The panel jobs couldn't load: {error.message}</p>
      ) : !jobs ? (
        <p className="text-sm text-ink-subtle">Loading...</p>
      ) : jobs.length ? (
        <JobRows jobs={jobs} showClient={false} />
      ) : (
        <p className="text-sm text-ink-muted">Nothing sent to the panel for this client yet.</p>
      )}
    </section>
  );
}
