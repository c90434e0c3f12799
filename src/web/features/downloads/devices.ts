// Device names for the apps' device_compatibility values (spec §3 option list). Values the
// list does not know (an operator may type a label) are shown as written.
import type { Download } from "@/shared/api";
import { DEVICE_LABELS, DEVICES } from "@/shared/options";

export function deviceLabel(value: string): string {
  return (DEVICE_LABELS as Record<string, string>)[value] ?? value;
}

export function appDevices(app: Pick<Download, "device_compatibility">): string[] {
  const list = Array.isArray(app.device_compatibility) ? app.device_compatibility : [app.device_compatibility];
  return list.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
}

export interface DeviceGroup {
  key: string;
  label: string;
  apps: Download[];
}

/**
 * The apps under each device they support, in the spec's device order; devices outside the
 * list follow in the order first seen, and apps that name no device come last.
 */
export function groupByDevice(apps: readonly Download[]): DeviceGroup[] {
  const groups = new Map<string, DeviceGroup>(DEVICES.map((d) => [d.value as string, { key: d.value, label: d.label, apps: [] }]));
  const unlisted: Download[] = [];
  for (const app of apps) {
    const devices = appDevices(app);
    if (devices.length === 0) unlisted.push(app);
    for (const device of new Set(devices)) {
      const group = groups.get(device) ?? { key: device, label: deviceLabel(device), apps: [] };
      group.apps.push(app);
      groups.set(device, group);
    }
  }
  const result = [...groups.values()].filter((group) => group.apps.length > 0);
  if (unlisted.length) result.push({ key: "other", label: "Other devices", apps: unlisted });
  return result;
}
