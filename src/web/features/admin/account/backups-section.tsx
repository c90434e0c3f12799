// /admin/backups: a copy of everything the shop holds, from the running server. On the embedded
// database a download (GET /api/admin/backup, a gzip tarball `npm run restore` takes back); on
// PostgreSQL the way is pg_dump on the server (`npm run backup`), said plainly.
import { useQuery } from "@tanstack/react-query";
import { DatabaseBackup, Download } from "lucide-react";
import { buttonClasses } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { apiGet } from "@/web/lib/api";
import { AdminPageHeader } from "../components/admin-page-header";

export function BackupsSection() {
  const info = useQuery({
    queryKey: ["admin", "backup-info"],
    queryFn: ({ signal }) => apiGet<{ data: { database: "pglite" | "postgres" } }>("/admin/backup/info", { signal }).then((r) => r.data),
  });
  return (
    <>
      <AdminPageHeader
        title="Backups"
        description="Clients, payments, invoices, messages and settings: everything the shop holds, in one file."
      />
      <Card className="flex max-w-2xl flex-col gap-4 p-5 sm:p-6">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-ink">
          <DatabaseBackup aria-hidden="true" className="size-5 text-accent-ink" />
          Download a backup
        </h2>
        {info.isPending ? (
          <p className="text-sm text-ink-muted">Checking the database...</p>
        ) : info.data?.database === "postgres" ? (
          <p className="text-sm text-ink-muted">
            This shop runs on PostgreSQL. Back it up on the server with{" "}
            <code className="font-mono text-ink">npm run backup -- file.dump</code> (pg_dump), or with your database host's own backups.
          </p>
        ) : (
          <>
            <p className="text-sm text-ink-muted">
              Taken from the running shop, nothing stops. Keep it somewhere other than this server: a daily copy kept for 30 days is a good
              habit. To bring it back, stop the shop and run <code className="font-mono text-ink">npm run restore -- file.tar.gz</code>.
            </p>
            {/* A plain same-origin link: the browser sends Sec-Fetch-Site: same-origin, which the route requires (issue 30). */}
            <a href="/api/admin/backup" download className={buttonClasses({ className: "self-start" })}>
              <Download aria-hidden="true" />
              Download backup
            </a>
          </>
        )}
      </Card>
    </>
  );
}
