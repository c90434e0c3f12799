// Device lines (issue 32 item 1): a line is an M3U/Xtream login (`m3u`, what most apps use), a
// MAG set-top box or an Enigma2 receiver. The two boxes are keyed on the panel by their MAC
// address, so the order, the review step and the portal ask for it, in the form printed on the
// device (XX:XX:XX:XX:XX:XX). MAG boxes are made by Infomir, whose MACs start 00:1A:79: another
// prefix is a warning (a typo is likely), not a refusal. The zod schemas are in
// device-line-schemas.ts, so a page that only names or checks devices does not load zod.
export const LINE_TYPES = ["m3u", "mag", "enigma2"] as const;
export type LineType = (typeof LINE_TYPES)[number];

export const LINE_TYPE_LABELS: Record<LineType, string> = {
  m3u: "Smart TV or phone app",
  mag: "MAG box",
  enigma2: "Enigma2 receiver",
};

/** What each choice means, under its label where the customer picks it. */
export const LINE_TYPE_HINTS: Record<LineType, string> = {
  m3u: "An IPTV app on a smart TV, phone, Fire Stick or Android box: you sign in with a username and password.",
  mag: "An Infomir MAG set-top box: it connects by its MAC address, no login needed.",
  enigma2: "A satellite receiver running Enigma2 (e.g. Zgemma, Vu+): it connects by its MAC address.",
};

export const isLineType = (value: string): value is LineType => (LINE_TYPES as readonly string[]).includes(value);

/** The line types keyed by a MAC address. */
export const needsMac = (type: string): boolean => type === "mag" || type === "enigma2";

export const MAC_MESSAGE = "Enter the MAC address as shown on the device (00:1A:79:xx:xx:xx)";
export const MAG_PREFIX = "00:1A:79";
export const MAC_PATTERN = /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/;

/** A MAC as typed (spaces around it, lower case, dashes) in the one stored form, 00:1A:79:AB:CD:EF. */
export function normaliseMac(value: string): string {
  return value.trim().toUpperCase().replace(/-/g, ":");
}

export const isValidMac = (value: string): boolean => MAC_PATTERN.test(normaliseMac(value));

/** The warning for a MAG MAC outside Infomir's range ('' when there is none). */
export function macWarning(type: string, mac: string): string {
  if (type !== "mag" || !isValidMac(mac) || normaliseMac(mac).startsWith(MAG_PREFIX)) return "";
  return `MAG boxes' MAC addresses start with ${MAG_PREFIX}. Check the label on the box before you continue.`;
}

// ---- changing a box's MAC from the portal (issue 32 item 2) ----------------------------------

export const MAC_CHANGE_COOLDOWN_SETTING = "mac_change_cooldown_hours";
export const MAC_CHANGE_LIMIT_SETTING = "mac_change_monthly_limit";
export const MAC_CHANGE_DEFAULTS = { cooldownHours: 24, monthlyLimit: 2 } as const;
export const MAC_CHANGE_SETTING_MESSAGE = "Enter a whole number, e.g. 24 hours or 2 changes";
