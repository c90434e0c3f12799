// A message to many clients at once (POST /api/admin/broadcasts): who gets it and what it says.
// Marketing goes only to clients who agreed to offers (POPIA s69); a service message (an outage,
// a change to the service) goes to everyone the filter picks.
import { z } from "zod";
import { CLIENT_STATUSES } from "./lifecycle";
import { blankToUndefined } from "./schemas";

export const BROADCAST_KINDS = ["service", "marketing"] as const;

export const broadcastAudienceSchema = z.object({
  kind: z.enum(BROADCAST_KINDS, { error: "Choose a service message or marketing" }),
  status: z.preprocess(blankToUndefined, z.enum(CLIENT_STATUSES, { error: "Choose a status from the list" }).optional()),
  packageId: z.preprocess(blankToUndefined, z.uuid({ error: "Choose a package from the list" }).optional()),
  expiringWithinDays: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "Expiring within must be a number of days" })
      .int("Expiring within must be a whole number of days")
      .min(0, "Expiring within must be 0 days or more")
      .max(365, "Expiring within must be 365 days or fewer")
      .optional(),
  ),
});
export type BroadcastAudience = z.infer<typeof broadcastAudienceSchema>;

export const broadcastSchema = broadcastAudienceSchema.extend({
  subject: z
    .string({ error: "Please enter a subject" })
    .trim()
    .min(1, "Please enter a subject")
    .max(120, "The subject must be 120 characters or fewer"),
  body: z
    .string({ error: "Please enter the message" })
    .trim()
    .min(1, "Please enter the message")
    .max(2000, "The message must be 2000 characters or fewer"),
});
export type BroadcastInput = z.infer<typeof broadcastSchema>;

/** POST /api/admin/broadcasts/preview: how many it reaches, on which channel, before sending. */
export interface BroadcastPreview {
  count: number;
  email: number;
  whatsapp: number;
  /** picked by the filter but with no address on any channel */
  unreachable: number;
  /** marketing only: picked by the filter but not opted in to offers, so left out */
  notOptedIn: number;
  /** a few names, to check the filter picked the right people */
  sample: string[];
}

/** How many broadcast messages leave a minute: the rest wait their turn in the outbox. */
export const BROADCAST_PER_MINUTE = 30;
