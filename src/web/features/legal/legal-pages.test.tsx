import { afterEach, describe, expect, it, vi } from "vitest";
import type { BrandingMap, SettingsMap } from "@/shared/api";
import { cleanup, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { PrivacyPolicyPage, RefundPolicyPage, TermsOfServicePage } from "./legal-pages";

const BRANDING: BrandingMap = {
  company_name: "Lekker Streams",
  whatsapp_number: "0821234567",
  support_email: "help@lekker.test",
};

/** The seed's settings: the business facts left empty, as a new shop starts. */
const EMPTY_FACTS: SettingsMap = {
  support_hours: "9am-8pm, 7 days a week",
  prices_include_vat: "false",
  vat_note: "",
  business_legal_name: "",
  business_address: "",
  registration_number: "",
  information_officer_name: "",
  information_officer_email: "",
};

const FILLED: SettingsMap = {
  ...EMPTY_FACTS,
  business_legal_name: "Lekker Media (Pty) Ltd",
  business_address: "12 Long Street, Cape Town, 8001",
  registration_number: "2020/123456/07",
  information_officer_name: "Naledi Dlamini",
  information_officer_email: "privacy@lekker.test",
  vat_note: "Prices include VAT at 15%.",
};

async function renderPage(Page: () => React.ReactNode, settings: SettingsMap) {
  vi.stubGlobal("fetch", stubFetch({ "/branding": { body: { data: BRANDING } }, "/settings": { body: { data: settings } } }).fetch);
  const { rendered } = renderRoutes([{ path: "/", element: <Page /> }]);
  const { container } = await rendered;
  await waitFor(() => expect(container.querySelector("dl")).toBeTruthy());
  return container;
}

/** The value shown beside a label in the business facts. */
function factFor(container: HTMLElement, label: string): string {
  const dt = [...container.querySelectorAll("dt")].find((d) => d.textContent === label);
  if (!dt) throw new Error(`no fact labelled ${label}`);
  return dt.nextElementSibling?.textContent ?? "";
}

/** Every text node, space-separated (textContent runs neighbouring cells together). */
function words(container: HTMLElement): string {
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  const parts: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) parts.push(node.textContent ?? "");
  return parts.join(" ");
}

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("legal pages filled from branding and settings", () => {
  it("says 'available on request' for every empty business fact, pointing at the support e-mail", async () => {
    const container = await renderPage(PrivacyPolicyPage, EMPTY_FACTS);
    for (const label of [
      "Registered name",
      "Registration number",
      "Physical address",
      "Information officer",
      "Information officer's e-mail",
    ]) {
      expect(factFor(container, label), label).toBe("Available on request from help@lekker.test");
    }
    expect(factFor(container, "Trading name")).toBe("Lekker Streams");
    expect(factFor(container, "WhatsApp")).toBe("+27 82 123 4567");
    expect(factFor(container, "Support hours")).toBe("9am-8pm, 7 days a week");
    const request = container.querySelector("[data-on-request] a");
    expect(request?.getAttribute("href")).toBe("mailto:help@lekker.test");
  });

  it("invents nothing: every e-mail address, phone number and company suffix on the page came from the data", async () => {
    for (const Page of [PrivacyPolicyPage, TermsOfServicePage, RefundPolicyPage]) {
      const container = await renderPage(Page, EMPTY_FACTS);
      const text = words(container);
      const emails = new Set(text.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? []);
      expect([...emails]).toEqual(["help@lekker.test"]);
      const phones = text.match(/\+?\d[\d ]{7,}\d/g) ?? [];
      expect(phones.length).toBeGreaterThan(0);
      expect(phones.every((p) => p === "+27 82 123 4567")).toBe(true);
      expect(text).not.toMatch(/\(Pty\)|Ltd|Street|Road|\d{4}\/\d{6}\/\d{2}/);
      expect(text).toContain("Lekker Streams");
      await cleanup();
    }
  });

  it("shows the facts the operator filled in, and the VAT note", async () => {
    const container = await renderPage(PrivacyPolicyPage, FILLED);
    expect(factFor(container, "Registered name")).toBe("Lekker Media (Pty) Ltd");
    expect(factFor(container, "Physical address")).toBe("12 Long Street, Cape Town, 8001");
    expect(factFor(container, "Registration number")).toBe("2020/123456/07");
    expect(factFor(container, "Information officer")).toBe("Naledi Dlamini");
    expect(factFor(container, "Information officer's e-mail")).toBe("privacy@lekker.test");
    expect(container.querySelector("[data-on-request]")).toBeNull();
    await cleanup();
    const terms = await renderPage(TermsOfServicePage, FILLED);
    expect(terms.textContent).toContain("Prices include VAT at 15%.");
  });

  it("covers what South African law asks each page to say", async () => {
    const privacy = (await renderPage(PrivacyPolicyPage, EMPTY_FACTS)).textContent ?? "";
    for (const phrase of [
      "responsible party",
      "information officer",
      "hosting provider",
      "e-mail provider",
      "WhatsApp",
      "outside South Africa",
      "How long we keep it",
      "Information Regulator",
      "opt out",
      // how to ask for a correction or deletion, and what is kept and why (POPIA s24, issue 46 item 7)
      "Correct or delete my data",
      "within 30 days",
      "Tax Administration Act",
    ]) {
      expect(privacy, phrase).toContain(phrase);
    }
    await cleanup();
    const terms = (await renderPage(TermsOfServicePage, EMPTY_FACTS)).textContent ?? "";
    for (const phrase of ["review and correct", "20 business days' notice", "Pricing page", "The prices shown do not include VAT."]) {
      expect(terms, phrase).toContain(phrase);
    }
    await cleanup();
    const refunds = (await renderPage(RefundPolicyPage, EMPTY_FACTS)).textContent ?? "";
    for (const phrase of ["within 7 days", "start your subscription at once", "20 business days' notice", "within 30 days"]) {
      expect(refunds, phrase).toContain(phrase);
    }
  });

  it("has one h1 and a last-updated date", async () => {
    const container = await renderPage(RefundPolicyPage, EMPTY_FACTS);
    expect([...container.querySelectorAll("h1")].map((h) => h.textContent)).toEqual(["Refund Policy"]);
    expect(container.textContent).toMatch(/Last updated \d{1,2} [A-Z][a-z]{2} \d{4}/);
  });
});
