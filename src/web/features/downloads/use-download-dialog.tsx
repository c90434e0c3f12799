// The download dialog, loaded on first use (it brings Radix with it), for any list of apps.
import { lazy, type ReactNode, Suspense, useState } from "react";
import type { Download } from "@/shared/api";
import { DialogBoundary } from "@/web/components/dialog-boundary";

const loadDialog = () => import("./download-dialog");
const DownloadDialog = lazy(() => loadDialog().then((m) => ({ default: m.DownloadDialog })));

export interface DownloadDialogHandle {
  open: (app: Download) => void;
  /** fetch the dialog's code ahead of the first click */
  preload: () => void;
  /** render this where the dialog may appear */
  element: ReactNode;
}

export function useDownloadDialog(): DownloadDialogHandle {
  const [app, setApp] = useState<Download | null>(null);
  return {
    open: setApp,
    preload: () => void loadDialog(),
    element: app ? (
      <DialogBoundary onClose={() => setApp(null)}>
        <Suspense fallback={null}>
          <DownloadDialog app={app} onClose={() => setApp(null)} />
        </Suspense>
      </DialogBoundary>
    ) : null,
  };
}
