// POST /api/downloads/:id/download → {url}: counts the download, then gives its address.
import { useMutation } from "@tanstack/react-query";
import type { DownloadUrlResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";

export function getDownloadUrl(id: string): Promise<DownloadUrlResponse> {
  return apiSend<DownloadUrlResponse>("POST", `/downloads/${encodeURIComponent(id)}/download`);
}

export function useDownloadUrl() {
  return useMutation({ mutationFn: getDownloadUrl });
}
