// A provisioning job as the worker holds it, and the failure it records with the panel's status.
import type { clients, provisioningJobs } from "@/server/db/schema";

export type Job = typeof provisioningJobs.$inferSelect;
export type Client = typeof clients.$inferSelect;

export class JobFailure extends Error {
  constructor(
    message: string,
    readonly status: string,
    readonly answer = "",
  ) {
    super(message);
  }
}
