// POST /api/downloads/:id/download: counts the download (the spec's increment_download_count,
// called before a download starts) and answers the app's URL.
import type { DownloadUrlResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";

export function startDownload(appId: string): Promise<DownloadUrlResponse> {
  return apiSend<DownloadUrlResponse>("POST", `/downloads/${encodeURIComponent(appId)}/download`);
}
