// No money for a line that cannot be made (issue 48 item 2), against the fake reseller panel: a
// package with no panel package mapped is listed as not available on the storefront and in the
// portal, a pay link or EFT reference for it is a 409 in the customer's words with no payment
// row, the owner is told once a day per package, and the moment the owner maps it the package
// is on sale again (the mapping touches the package, so cached lists follow). Manual mode makes
// every line by hand: every package is on sale there.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { capturedPayments, outbox, packages } from "@/server/db/schema";
import { PACKAGE_UNAVAILABLE_MESSAGE } from "@/server/lib/sellable";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, fillBankDetails, type TestApp } from "@/server/testing";
import type { Package } from "@/shared/api";
import { OWNER_ALERT_KIND } from "@/shared/owner-alerts";

const PUBLIC_URL = "http://localhost:8080";
let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
const pkgId: Record<string, string> = {};
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createTestApp({ PUBLIC_URL, PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 1_000 }, { seed: true });
  admin = await signInAdmin(t.app);
  await fillBankDetails(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
  // Only the 3 Months package is mapped to one of the panel's.
  const mapped = await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: { [pkgId["3 Months"]]: "3" } } });
  expect(mapped.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const listed = async (): Promise<Package[]> => (await t.app.inject({ method: "GET", url: "/api/packages" })).json().data;
const pay = (path: string, packageId: string) =>
  t.app.inject({
    method: "POST",
    url: path,
    headers: { origin: PUBLIC_URL },
    payload: { packageId, name: `Unsold ${++n}`, whatsapp: `0831${String(n).padStart(6, "0")}`, immediateStartConsent: true },
    remoteAddress: `10.48.2.${n}`,
  });
const unsellableAlerts = (packageId: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(eq(outbox.kind, OWNER_ALERT_KIND))
    .then((rows) => rows.filter((r) => r.dedupe_key?.startsWith(`unsellable-package:${packageId}:`)));

describe("a package with no panel package", () => {
  it("is listed as not available on the storefront; a mapped one is on sale", async () => {
    const rows = await listed();
    expect(rows.find((p) => p.name === "Month to Month")?.available).toBe(false);
    expect(rows.find((p) => p.name === "3 Months")?.available).toBe(true);
  });

  it("a pay link or an EFT reference for it is a 409 in the customer's words, with no payment row; the owner is told once", async () => {
    const before = (await t.app.db.select().from(capturedPayments)).length;
    for (const path of ["/api/payments/paylink", "/api/payments/eft", "/api/payments/paylink"]) {
      const refused = await pay(path, pkgId["Month to Month"]);
      expect(refused.statusCode, path).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: "package_unavailable",
        message: PACKAGE_UNAVAILABLE_MESSAGE,
        fields: { packageId: PACKAGE_UNAVAILABLE_MESSAGE },
      });
    }
    expect(PACKAGE_UNAVAILABLE_MESSAGE).toBe("This package is not available yet — please choose another or contact us.");
    expect(await t.app.db.select().from(capturedPayments)).toHaveLength(before);
    // three refusals, one alert: which package, and where to map it
    const alerts = await unsellableAlerts(pkgId["Month to Month"]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].subject).toBe("A customer could not buy Month to Month");
    expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/panel`);
    // a package that can be made is sold as before
    expect((await pay("/api/payments/paylink", pkgId["3 Months"])).statusCode).toBe(201);
  });

  it("the launch checklist names it", async () => {
    const checklist = (await admin.call({ method: "GET", url: "/api/admin/launch-checklist" })).json();
    const panel = checklist.items.find((i: { key: string }) => i.key === "panel");
    expect(panel.done).toBe(false);
    expect(panel.why).toContain('"Month to Month"');
  });

  it("once the owner maps it, it is on sale at once: the listing and a pay link", async () => {
    expect((await listed()).find((p) => p.name === "Month to Month")?.available).toBe(false);
    const mapped = await admin.call({
      method: "PUT",
      url: "/api/admin/panel/mapping",
      payload: { packages: { [pkgId["Month to Month"]]: "1" } },
    });
    expect(mapped.statusCode).toBe(200);
    // the cached list heard of it through the change feed (the package row was touched)
    await expect.poll(async () => (await listed()).find((p) => p.name === "Month to Month")?.available, { timeout: 5_000 }).toBe(true);
    expect((await pay("/api/payments/paylink", pkgId["Month to Month"])).statusCode).toBe(201);
  });
});

describe("manual mode", () => {
  it("sells every package: the owner makes each line by hand", async () => {
    const manual = await createTestApp({ PUBLIC_URL, PANEL_MODE: "manual" }, { seed: true });
    try {
      const rows: Package[] = (await manual.app.inject({ method: "GET", url: "/api/packages" })).json().data;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((p) => p.available === true)).toBe(true);
      const [month] = await manual.app.db.select().from(packages).where(eq(packages.name, "Month to Month"));
      const paid = await manual.app.inject({
        method: "POST",
        url: "/api/payments/paylink",
        headers: { origin: PUBLIC_URL },
        payload: { packageId: month.id, name: "Manual Buyer", whatsapp: "083 100 2000", immediateStartConsent: true },
      });
      expect(paid.statusCode, paid.body).toBe(201);
    } finally {
      await manual.close();
    }
  });
});
