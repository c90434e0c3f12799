// Route modules, registered under /api in this order by buildApp.
import type { FastifyPluginAsync } from "fastify";
import adminAuth from "./admin-auth/routes";
import adminBusiness from "./admin-business/routes";
import adminCatalogue from "./admin-catalogue/routes";
import adminOps from "./admin-ops/routes";
import autoRenew from "./auto-renew/routes";
import billing from "./billing/routes";
import broadcasts from "./broadcasts/routes";
import catalogue from "./catalogue/routes";
import client from "./client/routes";
import content from "./content/routes";
import dataRequests from "./data-requests/routes";
import downloads from "./downloads/routes";
import health from "./health/routes";
import kb from "./kb/routes";
import messageTemplates from "./message-templates/routes";
import monitor from "./monitor/routes";
import orders from "./orders/routes";
import panelMacChange from "./panel/mac-change";
import panel from "./panel/routes";
import partner from "./partner/routes";
import payLinks from "./pay-links/routes";
import paymentProviders from "./payment-providers/routes";
import payments from "./payments/routes";
import realtime from "./realtime/routes";
import resellers from "./resellers/routes";
import speedtest from "./speedtest/routes";
import status from "./status/routes";
import statusSubscriptions from "./status/subscriptions";
import trials from "./trials/routes";
import whatsapp from "./whatsapp/routes";

export const routeModules: FastifyPluginAsync[] = [
  health,
  catalogue,
  content,
  status,
  statusSubscriptions,
  kb,
  realtime,
  orders,
  trials,
  downloads,
  speedtest,
  monitor,
  payments,
  paymentProviders,
  payLinks,
  client,
  dataRequests,
  adminAuth,
  adminBusiness,
  adminCatalogue,
  adminOps,
  broadcasts,
  messageTemplates,
  billing,
  autoRenew,
  panel,
  panelMacChange,
  resellers,
  partner,
  whatsapp,
];
