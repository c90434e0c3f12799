// Spec §8: when the downloads cannot be read, the built-in app names stand in (an Android
// player, a second Android player, a Smart TV player), without a download link or a guide.
import type { Download } from "@/shared/api";

function builtIn(n: number, name: string, description: string, devices: string[]): Download {
  return {
    id: `built-in-${n}`,
    name,
    description,
    download_url: null,
    file_type: "",
    file_size: "",
    version: "",
    device_compatibility: devices,
    installation_guide: null,
    download_count: 0,
    is_featured: n === 1,
    qr_code_data: null,
    logo_url: null,
    sort_order: n,
    is_active: true,
  };
}

export const BUILT_IN_APPS: readonly Download[] = Object.freeze([
  builtIn(1, "IPTV Smarters Pro", "A simple player for Android phones, tablets, TV boxes and Fire Sticks.", [
    "android",
    "android-box",
    "firestick",
  ]),
  builtIn(2, "TiviMate", "A TV-style programme guide for Android TV boxes, Fire Sticks and Android Smart TVs.", [
    "android-box",
    "firestick",
    "smart-tv-android",
  ]),
  builtIn(3, "Smart IPTV", "A player for Samsung, LG and Hisense Smart TVs.", ["smart-tv-samsung"]),
]);

/** A built-in stand-in has no id the server knows. */
export function isBuiltInApp(app: Pick<Download, "id">): boolean {
  return app.id.startsWith("built-in-");
}
