// Every page of spec §2's route table, each loaded lazily with its skeleton variant. The router
// (router.tsx) builds its routes from this table, and the public layout reads it to show the
// right skeleton while a page's code is on its way.

import type { ComponentType } from "react";
import { matchRoutes } from "react-router";
import type { SkeletonVariant } from "@/web/components/ui/page-skeleton";

/** 'loading' is the full-screen state of the home page; the rest are PageSkeleton variants. */
export type PageFallback = SkeletonVariant | "loading";

export interface PageRoute {
  path: string;
  /** the browser tab's title, before the business name (none: the name and tagline) */
  title?: string;
  fallback: PageFallback;
  /** the spec puts this page inside its own error boundary */
  boundary?: boolean;
  load: () => Promise<ComponentType>;
}

const page =
  <M>(importer: () => Promise<M>, pick: (module: M) => ComponentType) =>
  () =>
    importer().then(pick);

/** Pages inside the public layout (navigation and footer). */
export const publicPages: PageRoute[] = [
  {
    path: "/",
    fallback: "loading",
    load: page(
      () => import("./routes/landing-page"),
      (m) => m.LandingPage,
    ),
  },
  {
    path: "/home",
    fallback: "loading",
    load: page(
      () => import("./routes/landing-page"),
      (m) => m.LandingPage,
    ),
  },
  {
    path: "/about",
    title: "About us",
    fallback: "card",
    load: page(
      () => import("@/web/features/about/about-page"),
      (m) => m.AboutPage,
    ),
  },
  {
    path: "/pricing",
    title: "Pricing",
    fallback: "card",
    load: page(
      () => import("@/web/features/pricing/pricing-page"),
      (m) => m.PricingPage,
    ),
  },
  {
    path: "/how-to-use",
    title: "How it works",
    fallback: "card",
    load: page(
      () => import("./routes/how-to-use-page"),
      (m) => m.HowToUseRoute,
    ),
  },
  {
    path: "/testimonials",
    title: "Testimonials",
    fallback: "card",
    load: page(
      () => import("@/web/features/testimonials/testimonials-page"),
      (m) => m.TestimonialsPage,
    ),
  },
  {
    path: "/stream-test",
    title: "Stream test",
    fallback: "card",
    load: page(
      () => import("@/web/features/stream-test/stream-test-page"),
      (m) => m.StreamTestPage,
    ),
  },
  {
    path: "/support",
    title: "Support",
    fallback: "card",
    load: page(
      () => import("@/web/features/support/support-page"),
      (m) => m.SupportPage,
    ),
  },
  {
    path: "/technical-support",
    title: "Technical support",
    fallback: "list",
    boundary: true,
    load: page(
      () => import("@/web/features/support/technical-support-page"),
      (m) => m.TechnicalSupportPage,
    ),
  },
  {
    path: "/setup-guide",
    title: "Setup guide",
    fallback: "list",
    boundary: true,
    load: page(
      () => import("@/web/features/support/setup-guide-page"),
      (m) => m.SetupGuidePage,
    ),
  },
  {
    path: "/privacy-policy",
    title: "Privacy Policy",
    fallback: "list",
    load: page(
      () => import("@/web/features/legal/legal-pages"),
      (m) => m.PrivacyPolicyPage,
    ),
  },
  {
    path: "/terms-of-service",
    title: "Terms of Service",
    fallback: "list",
    load: page(
      () => import("@/web/features/legal/legal-pages"),
      (m) => m.TermsOfServicePage,
    ),
  },
  {
    path: "/refund-policy",
    title: "Refund Policy",
    fallback: "list",
    load: page(
      () => import("@/web/features/legal/legal-pages"),
      (m) => m.RefundPolicyPage,
    ),
  },
  {
    path: "/client-password-reset",
    title: "Reset your password",
    fallback: "form",
    boundary: true,
    load: page(
      () => import("@/web/features/client/client-password-reset-page"),
      (m) => m.ClientPasswordResetPage,
    ),
  },
  // the partner portal (issue 45): sub-resellers sign in, sell lines from their credits, read their ledger
  {
    path: "/partner",
    title: "Partner portal",
    fallback: "form",
    boundary: true,
    load: page(
      () => import("@/web/features/partner/partner-portal-page"),
      (m) => m.PartnerPortalPage,
    ),
  },
  {
    path: "/partner/set-password",
    title: "Choose your partner password",
    fallback: "form",
    boundary: true,
    load: page(
      () => import("@/web/features/partner/partner-set-password-page"),
      (m) => m.PartnerSetPasswordPage,
    ),
  },
  {
    path: "/knowledge-base",
    title: "Help Centre",
    fallback: "list",
    load: page(
      () => import("@/web/features/kb/knowledge-base-page"),
      (m) => m.KnowledgeBasePage,
    ),
  },
  {
    path: "/knowledge-base/:slug",
    title: "Help Centre",
    fallback: "list",
    load: page(
      () => import("@/web/features/kb/kb-article-page"),
      (m) => m.KbArticlePage,
    ),
  },
  {
    path: "/downloads",
    title: "Downloads",
    fallback: "card",
    load: page(
      () => import("@/web/features/downloads/downloads-page"),
      (m) => m.DownloadsPage,
    ),
  },
  {
    path: "/status",
    title: "System status",
    fallback: "list",
    load: page(
      () => import("@/web/features/status/status-page"),
      (m) => m.StatusPage,
    ),
  },
  {
    path: "/releases",
    title: "Release notes",
    fallback: "list",
    load: page(
      () => import("@/web/features/releases/releases-page"),
      (m) => m.ReleasesPage,
    ),
  },
  {
    path: "/order",
    title: "Order",
    fallback: "form",
    load: page(
      () => import("@/web/features/order/order-page"),
      (m) => m.OrderPage,
    ),
  },
  {
    path: "/auth",
    title: "Sign in",
    fallback: "form",
    load: page(
      () => import("@/web/features/auth/auth-page"),
      (m) => m.AuthPage,
    ),
  },
  {
    // the one-tap pay link from a trial or renewal message (issue 27 item 4)
    path: "/pay/:token",
    title: "Pay",
    fallback: "card",
    load: page(
      () => import("@/web/features/pay-link/pay-link-page"),
      (m) => m.PayLinkPage,
    ),
  },
  {
    path: "/payment/success",
    title: "Payment received",
    fallback: "card",
    load: page(
      () => import("@/web/features/payments/payment-result-pages"),
      (m) => m.PaymentSuccessPage,
    ),
  },
  {
    path: "/payment/failure",
    title: "Payment failed",
    fallback: "card",
    load: page(
      () => import("@/web/features/payments/payment-result-pages"),
      (m) => m.PaymentFailurePage,
    ),
  },
  {
    path: "/payment/cancel",
    title: "Payment cancelled",
    fallback: "card",
    load: page(
      () => import("@/web/features/payments/payment-result-pages"),
      (m) => m.PaymentCancelPage,
    ),
  },
  {
    path: "*",
    title: "Page not found",
    fallback: "card",
    load: page(
      () => import("./routes/not-found-page"),
      (m) => m.NotFoundPage,
    ),
  },
];

/** /admin/*: inside the admin wrapper (its own lazy chunk). Paths are relative to /admin. */
export const adminPages: PageRoute[] = [
  {
    path: "login",
    title: "Admin Login",
    fallback: "form",
    load: page(
      () => import("@/web/features/admin/admin-login-page"),
      (m) => m.AdminLoginPage,
    ),
  },
  {
    path: "client/:clientId",
    title: "Client details",
    fallback: "table",
    load: page(
      () => import("@/web/features/admin/admin-client-page"),
      (m) => m.AdminClientPage,
    ),
  },
  {
    path: ":section/:subsection?",
    title: "Business Dashboard",
    fallback: "dashboard",
    load: page(
      () => import("@/web/features/admin/admin-dashboard-page"),
      (m) => m.AdminDashboardPage,
    ),
  },
];
export const adminIndex: PageRoute = {
  path: "",
  title: "Business Dashboard",
  fallback: "dashboard",
  load: page(
    () => import("@/web/features/admin/admin-dashboard-page"),
    (m) => m.AdminDashboardPage,
  ),
};

/**
 * The subscriber's own pages at the spec's top-level addresses: inside the client wrapper too,
 * so the portal keeps one header whichever tab is open; each page in an error boundary.
 */
export const clientAccountPages: PageRoute[] = [
  {
    path: "/payment-history",
    title: "Payment history",
    fallback: "table",
    boundary: true,
    load: page(
      () => import("@/web/features/client/payment-history-page"),
      (m) => m.PaymentHistoryPage,
    ),
  },
  {
    path: "/account-management",
    title: "Account management",
    fallback: "form",
    boundary: true,
    load: page(
      () => import("@/web/features/client/account-management-page"),
      (m) => m.AccountManagementPage,
    ),
  },
];

/** /client/*: inside the client wrapper (its own lazy chunk), each page in an error boundary. */
export const clientPages: PageRoute[] = [
  {
    path: "login",
    title: "Client Portal login",
    fallback: "form",
    load: page(
      () => import("@/web/features/client/client-login-page"),
      (m) => m.ClientLoginPage,
    ),
  },
  {
    path: "specials",
    title: "Client specials",
    fallback: "card",
    boundary: true,
    load: page(
      () => import("@/web/features/client/client-specials-page"),
      (m) => m.ClientSpecialsPage,
    ),
  },
];
export const clientIndex: PageRoute = {
  path: "",
  title: "Client Portal",
  fallback: "dashboard",
  boundary: true,
  load: page(
    () => import("@/web/features/client/client-portal-page"),
    (m) => m.ClientPortalPage,
  ),
};

const wrapperPath = /^\/(admin|client)(\/|$)/;

/** The fallback to show while the page at this path loads (public pages and the two wrappers). */
export function fallbackForPath(pathname: string): PageFallback {
  if (wrapperPath.test(pathname)) return pathname.endsWith("/login") ? "form" : "dashboard";
  const matches = matchRoutes(
    [...publicPages, ...clientAccountPages].map((p) => ({ path: p.path, fallback: p.fallback })),
    pathname,
  );
  const last = matches?.[matches.length - 1]?.route as { fallback?: PageFallback } | undefined;
  return last?.fallback ?? "card";
}
