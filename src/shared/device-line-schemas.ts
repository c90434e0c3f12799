// The schemas of device lines (issue 32): the order's and payment's device fields, the portal's
// and the owner's MAC changes, and the device an order's lead asked for. The words and rules
// they use are in device-lines.ts, which carries no zod for the storefront's sake.
import { z } from "zod";
import { LINE_TYPES, type LineType, MAC_MESSAGE, MAC_PATTERN, needsMac, normaliseMac } from "./device-lines";

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

// Made once: building a zod object is far dearer than parsing with it (every order's messages ask).
const leadDeviceSchema = z.object(deviceLineFields).superRefine(requireMac);

/**
 * The device an order's lead asked for (its payload keeps the form's fields as sent): the line
 * type and MAC a client made from the lead starts with. Anything the schema would refuse is no
 * device: an app's line, which the owner can change on the client's page.
 */
export function deviceOfLead(payload: Record<string, unknown> | null | undefined): { line_type: LineType; line_mac: string } {
  const parsed = leadDeviceSchema.safeParse({ lineType: payload?.lineType, mac: payload?.mac });
  if (!parsed.success || !parsed.data.lineType || !needsMac(parsed.data.lineType)) return { line_type: "m3u", line_mac: "" };
  return { line_type: parsed.data.lineType, line_mac: parsed.data.mac ?? "" };
}
