// Device lines (issue 32 item 1): a line is an M3U/Xtream login (`m3u`, what most apps use), a
// MAG set-top box or an Enigma2 receiver. The two boxes are keyed on the panel by their MAC
// address, so the order, the review step and the portal ask for it, in the form printed on the
// device (XX:XX:XX:XX:XX:XX). MAG boxes are made by Infomir, whose MACs start 00:1A:79: another
// prefix is a warning (a typo is likely), not a refusal.
import { z } from "zod";

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
const MAC_PATTERN = /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/;

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

/** The device fields of an order or payment: the line type (absent: an app, m3u), and the MAC when the type needs one. */
export const deviceLineFields = {
  lineType: z.enum(LINE_TYPES, { error: "Choose an app, a MAG box or an Enigma2 receiver" }).optional(),
  mac: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : normaliseMac(v)) : v),
    z.string({ error: MAC_MESSAGE }).regex(MAC_PATTERN, MAC_MESSAGE).optional(),
  ),
};

/** A box needs its MAC: the check an object with deviceLineFields adds (superRefine). */
export function requireMac(value: { lineType?: string; mac?: string }, ctx: z.RefinementCtx): void {
  if (needsMac(value.lineType ?? "m3u") && !value.mac) ctx.addIssue({ code: "custom", path: ["mac"], message: MAC_MESSAGE });
}

// ---- changing a box's MAC from the portal (issue 32 item 2) ----------------------------------

export const MAC_CHANGE_COOLDOWN_SETTING = "mac_change_cooldown_hours";
export const MAC_CHANGE_LIMIT_SETTING = "mac_change_monthly_limit";
export const MAC_CHANGE_DEFAULTS = { cooldownHours: 24, monthlyLimit: 2 } as const;
export const MAC_CHANGE_SETTING_MESSAGE = "Enter a whole number, e.g. 24 hours or 2 changes";

/** POST /api/client/line/mac: the box's new MAC. */
export const macChangeSchema = z.object({
  mac: z.preprocess((v) => (typeof v === "string" ? normaliseMac(v) : v), z.string({ error: MAC_MESSAGE }).regex(MAC_PATTERN, MAC_MESSAGE)),
});
export type MacChange = z.output<typeof macChangeSchema>;

/**
 * POST /api/admin/clients/:id/line-mac: the owner sets or changes a client's box MAC (no cooldown).
 * `lineType` makes a client without a panel line yet a box's (e.g. a lead converted by hand); an
 * existing line keeps its type.
 */
export const adminMacSchema = z.object({
  mac: macChangeSchema.shape.mac,
  lineType: z.enum(["mag", "enigma2"], { error: "Choose a MAG box or an Enigma2 receiver" }).optional(),
});
export type AdminMac = z.output<typeof adminMacSchema>;
export type AdminMacInput = z.input<typeof adminMacSchema>;

/**
 * The device an order's lead asked for (its payload keeps the form's fields as sent): the line
 * type and MAC a client made from the lead starts with. Anything the schema would refuse is no
 * device: an app's line, which the owner can change on the client's page.
 */
export function deviceOfLead(payload: Record<string, unknown> | null | undefined): { line_type: LineType; line_mac: string } {
  const parsed = z.object(deviceLineFields).superRefine(requireMac).safeParse({ lineType: payload?.lineType, mac: payload?.mac });
  if (!parsed.success || !parsed.data.lineType || !needsMac(parsed.data.lineType)) return { line_type: "m3u", line_mac: "" };
  return { line_type: parsed.data.lineType, line_mac: parsed.data.mac ?? "" };
}
