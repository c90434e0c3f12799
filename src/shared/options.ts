// The order form's option lists (spec §3 "Option lists"), shared by the form, the server
// (which validates against them) and the admin (which shows labels for stored values).

/** Spec §3 devices, in the spec's order. */
export const DEVICES = [
  { value: "android", label: "Android Phone/Tablet" },
  { value: "ios", label: "iPhone/iPad" },
  { value: "apple-tv", label: "Apple TV" },
  { value: "smart-tv-android", label: "Smart TV - Android" },
  { value: "smart-tv-samsung", label: "Smart TV - Samsung, Hisense, LG" },
  { value: "firestick", label: "Amazon Fire Stick" },
  { value: "android-box", label: "Android TV Box" },
  { value: "non-google-certified", label: "Non Google Certified" },
  { value: "pc", label: "PC/Laptop" },
] as const;

export type DeviceValue = (typeof DEVICES)[number]["value"];

export const DEVICE_LABELS = Object.fromEntries(DEVICES.map((d) => [d.value, d.label])) as Record<DeviceValue, string>;

/** Spec §3 internet platforms: fibre, wireless, 5g, lte, other ('other' asks for free text). */
export const INTERNET_PLATFORMS = [
  { value: "fibre", label: "Fibre" },
  { value: "wireless", label: "Wireless" },
  { value: "5g", label: "5G" },
  { value: "lte", label: "LTE" },
  { value: "other", label: "Other" },
] as const;

export type InternetPlatform = (typeof INTERNET_PLATFORMS)[number]["value"];

export const INTERNET_PLATFORM_LABELS = Object.fromEntries(INTERNET_PLATFORMS.map((p) => [p.value, p.label])) as Record<
  InternetPlatform,
  string
>;

/** The duration value the hero's selectDuration event and the order form use for the trial. */
export const FREE_TRIAL_DURATION = "free-trial";
export const FREE_TRIAL_DURATION_LABEL = "Free Trial (24 Hours)";

export interface Option {
  value: string;
  label: string;
}

/**
 * Spec §3: "Duration: free-trial plus each package's duration" — the trial first, then each
 * distinct duration in package order (the first spelling wins when two differ only in case).
 */
export function durationOptions(packages: readonly { duration: string }[]): Option[] {
  const options: Option[] = [{ value: FREE_TRIAL_DURATION, label: FREE_TRIAL_DURATION_LABEL }];
  const seen = new Set<string>([FREE_TRIAL_DURATION]);
  for (const { duration } of packages) {
    const value = duration.trim();
    const key = value.toLowerCase();
    if (!value || seen.has(key)) continue;
    seen.add(key);
    options.push({ value, label: value });
  }
  return options;
}
