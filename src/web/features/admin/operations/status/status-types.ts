// The status page's rows as the admin API answers them, and how their states read.
import type { ComponentStatus, Incident } from "@/shared/api";
import type { BadgeVariant } from "@/web/components/ui/badge";
import type { AdminResource } from "../api/resource";
import { opsKeys } from "../operations-keys";

export interface AdminComponent {
  id: string;
  key: string;
  name: string;
  description: string;
  status: ComponentStatus | string;
  maintenance: boolean;
  message: string;
  sort_order: number;
  last_checked_at: string | null;
}

/** An incident as the admin API answers it: the public shape (resolved ones included). */
export type AdminIncident = Incident;

export const componentsResource: AdminResource = { path: "components", key: opsKeys.components, label: "Component" };
export const incidentsResource: AdminResource = { path: "incidents", key: opsKeys.incidents, label: "Incident" };
export const maintenanceResource: AdminResource = { path: "maintenance", key: opsKeys.maintenance, label: "Maintenance" };

/** Scheduled maintenance as the admin API answers it: a row of incidents with kind 'maintenance' (started_at its start). */
export interface AdminMaintenance {
  id: string;
  title: string;
  body: string;
  status: string;
  component_keys: string[];
  started_at: string;
  ends_at: string | null;
  resolved_at: string | null;
}

export const COMPONENT_STATUS_VARIANT: Record<string, BadgeVariant> = {
  operational: "ok",
  degraded: "warn",
  maintenance: "accent",
  down: "bad",
};

export const IMPACT_VARIANT: Record<string, BadgeVariant> = { minor: "warn", major: "bad", critical: "bad", maintenance: "accent" };

/** The colour class of a day in the history strip. */
export const DAY_COLOUR: Record<string, string> = {
  operational: "bg-ok",
  degraded: "bg-warn",
  maintenance: "bg-accent",
  down: "bg-bad",
};
