// The downloads page's apps (spec §7), from the shared read of /api/downloads. When the read
// fails the built-in app names stand in, without download links (spec §8).
import { useQuery } from "@tanstack/react-query";
import type { Download } from "@/shared/api";
import { downloadsQueryOptions } from "@/web/lib/queries/downloads";
import { BUILT_IN_APPS } from "../built-in-apps";

export interface DownloadsState {
  apps: readonly Download[];
  isLoading: boolean;
  /** the read failed: the built-in names are shown */
  isFallback: boolean;
}

export function useDownloads(): DownloadsState {
  const { data, isPending, isError } = useQuery(downloadsQueryOptions());
  if (isError) return { apps: BUILT_IN_APPS, isLoading: false, isFallback: true };
  return { apps: data ?? [], isLoading: isPending, isFallback: false };
}
