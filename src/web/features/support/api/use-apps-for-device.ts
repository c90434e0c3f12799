// The setup guide's apps for one device, from the shared read of /api/downloads.
import { useQuery } from "@tanstack/react-query";
import type { Download } from "@/shared/api";
import { downloadsQueryOptions } from "@/web/lib/queries/downloads";

/** The apps that list this device among the ones they support (featured first, as the API sends them). */
export function useAppsForDevice(device: string): { apps: Download[]; isPending: boolean } {
  const { data, isPending } = useQuery(downloadsQueryOptions());
  const apps = (data ?? []).filter((app) => {
    const devices = Array.isArray(app.device_compatibility) ? app.device_compatibility : [app.device_compatibility];
    return devices.some((d) => typeof d === "string" && d.trim() === device);
  });
  return { apps, isPending };
}
