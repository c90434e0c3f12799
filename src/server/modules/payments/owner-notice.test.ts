// Issue 25 items 1 and 3: the owner's "Payment received" e-mail says what was queued to the
// customer and on which channel (never "portal login sent"), and what happens on the panel in
// its mode: made automatically (the API panel, or the sandbox panel), or a task for the owner.
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPayments, outbox, packages } from "@/server/db/schema";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";
import { panelTodo } from "./settle";

const PUBLIC_URL = "http://localhost:8080";
const apps: TestApp[] = [];
let ip = 0;

afterAll(async () => {
  for (const t of apps) await t.close();
});

async function appIn(mode: "auto" | "manual", extra: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ SANDBOX_SECRET: "sandbox-test-secret", PUBLIC_URL, PANEL_MODE: mode, ...extra }, { seed: true });
  apps.push(t);
  // the shop's first admin: the notice goes to their address (the alerts e-mail)
  await createAdmin(t.app);
  return t;
}

/** A visitor pays for 3 Months; answers the owner's notice about it. */
async function noticeOfVisitorPayment(t: TestApp, payer: { name: string; whatsapp: string; email?: string }) {
  const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "3 Months"));
  const link = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: { packageId: pkg.id, immediateStartConsent: true, ...payer },
    headers: { origin: PUBLIC_URL },
    remoteAddress: `10.8.0.${++ip}`,
  });
  expect(link.statusCode, link.body).toBe(201);
  const ref = link.json().externalTransactionID as string;
  await t.app.inject({
    method: "POST",
    url: `/api/payments/sandbox/checkout/${ref}/pay`,
    headers: { origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });
  const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
  expect(payment.status).toBe("paid");
  const [notice] = await t.app.db
    .select()
    .from(outbox)
    .where(eq(outbox.dedupe_key, `payment-received:${payment.id}`));
  return notice;
}

describe("the owner's Payment received e-mail", () => {
  it("sandbox (automatic) panel: what was queued on which channel, and that the line is made automatically", async () => {
    const t = await appIn("auto");
    const notice = await noticeOfVisitorPayment(t, { name: "Thandi Mokoena", whatsapp: "083 555 0201", email: "thandi@example.co.za" });
    expect(notice.body).toContain("A new client account was made.");
    expect(notice.body).toContain(
      "Queued to them: their portal login on WhatsApp to +27 83 555 0201 and by e-mail to thandi@example.co.za; their receipt by e-mail to thandi@example.co.za.",
    );
    // no Cloud API on this shop: said as it is
    expect(notice.body).toContain(
      'WhatsApp is not connected to the Cloud API, so WhatsApp messages wait for you under "To send on WhatsApp" on the dashboard.',
    );
    expect(notice.body).toContain("The line is being created on the panel automatically; the login goes to the customer when it is made.");
    expect(notice.body).not.toContain("portal login sent");
    expect(notice.body).not.toContain("Set up their line");
    expect(notice.body).not.toContain("send their streaming login details");
  });

  it("with the WhatsApp Cloud API connected it says WhatsApp goes through it, never that it waits for want of it", async () => {
    // the API's address is never dialled here: the notice is written as the payment settles
    const t = await appIn("auto", {
      WHATSAPP_TOKEN: "test-token",
      WHATSAPP_PHONE_NUMBER_ID: "1234",
      WHATSAPP_API_URL: "http://127.0.0.1:9",
    });
    const notice = await noticeOfVisitorPayment(t, { name: "Lindiwe Cloud", whatsapp: "083 555 0203", email: "lindiwe@example.co.za" });
    expect(notice.body).toContain("WhatsApp messages go through the WhatsApp Cloud API;");
    expect(notice.body).not.toContain("not connected to the Cloud API");
    expect(notice.body).not.toContain("Without the WhatsApp Cloud API");
  });

  it("manual mode: the line is the owner's task on the dashboard", async () => {
    const t = await appIn("manual");
    const notice = await noticeOfVisitorPayment(t, { name: "Sipho Dlamini", whatsapp: "083 555 0202" });
    expect(notice.body).toContain(
      "Queued to them: their portal login on WhatsApp to +27 83 555 0202; their receipt on WhatsApp to +27 83 555 0202.",
    );
    expect(notice.body).toContain(
      `Make this line on your panel, then paste its login in the task on the dashboard: ${PUBLIC_URL}/admin/panel#panel-jobs`,
    );
    expect(notice.body).not.toContain("automatically");
    expect(notice.body).not.toContain("portal login sent");
  });
});

describe("panelTodo", () => {
  it.each([
    [["create_line"], "xtream", "The line is being created on the panel automatically; the login goes to the customer when it is made."],
    [["create_line"], "sandbox", "The line is being created on the panel automatically; the login goes to the customer when it is made."],
    [["extend_line"], "xtream", "The line is being renewed on the panel automatically."],
    [
      ["create_line"],
      "manual",
      "Make this line on your panel, then paste its login in the task on the dashboard: https://tv.example/admin/panel#panel-jobs",
    ],
    [
      ["extend_line", "enable_line"],
      "manual",
      "Renew this line on your panel, then mark the task done on the dashboard: https://tv.example/admin/panel#panel-jobs",
    ],
    [[], "xtream", ""],
  ] as const)("%o in %s mode", (actions, mode, words) => {
    expect(panelTodo(actions, mode, "https://tv.example")).toBe(words);
  });
});
