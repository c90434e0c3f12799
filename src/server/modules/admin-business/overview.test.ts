// The overview figures on known data (South African days), the CSV exports (the filtered
// list, every page, injection cells neutralised) and content-request replies.
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, capturedPayments, clients, contentRequests, leads, outbox, refundAttempts } from "@/server/db/schema";
import { saDayStart } from "@/server/lib/list-query";
import { baseUsername } from "@/server/lib/usernames";
import { createTestApp, type TestApp } from "@/server/testing";
import { saDay } from "@/shared/dates";
import { csvCell, csvDateTime } from "./csv";
import { seriesDays } from "./stats";
import { type SignedIn, signInAdmin } from "./test-admin";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** A minimal RFC 4180 reader for the test: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

describe("pure pieces", () => {
  it("quotes CSV cells and neutralises formula cells", () => {
    expect(csvCell('Smith, "Jr"')).toBe('"Smith, ""Jr"""');
    expect(csvCell("line one\nline two")).toBe('"line one\nline two"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+27 82 555 0101")).toBe("'+27 82 555 0101");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell(-150)).toBe("-150");
    expect(csvCell(true)).toBe("yes");
    expect(csvCell(null)).toBe("");
    expect(csvDateTime(new Date("2026-11-22T22:30:00Z"))).toBe("2026-11-23 00:30");
  });

  it("makes usernames from names", () => {
    expect(baseUsername("Thabo Mokoena")).toBe("thabo.m");
    expect(baseUsername("  Zoë   van der Merwe ")).toBe("zoe.m");
    expect(baseUsername("Sipho")).toBe("sipho");
    expect(baseUsername("Al")).toBe("al.client");
    expect(baseUsername("!!!")).toBe("client");
  });
});

describe("GET /api/admin/stats", () => {
  it("counts leads, clients, trials, expiries, revenue, EFTs awaiting, failed messages and held refunds by South African days", async () => {
    const now = new Date();
    const todayStart = saDayStart(saDay(now));
    const monthStart = saDayStart(`${saDay(now).slice(0, 7)}-01`);
    const leadTimes = [
      new Date(now.getTime() - 1000), // today
      new Date(todayStart.getTime() - HOUR), // yesterday (this week)
      new Date(todayStart.getTime() - 6 * DAY + HOUR), // six days back: still this week
      new Date(todayStart.getTime() - 10 * DAY), // in the 30 days, not this week
      new Date(now.getTime() - 40 * DAY), // outside the series
    ];
    await t.app.db
      .insert(leads)
      .values(leadTimes.map((created_at, i) => ({ form_type: "order", name: `Stats Lead ${i}`, whatsapp: `08255500${i}0`, created_at })));
    const client = (username: string, status: string, endOffset: number) => ({
      username,
      full_name: username,
      password_hash: "x",
      status,
      subscription_end: new Date(now.getTime() + endOffset),
    });
    await t.app.db
      .insert(clients)
      .values([
        client("active-soon", "active", 3 * DAY),
        client("active-later", "active", 60 * DAY),
        client("active-lapsed", "active", -DAY),
        client("trial-live", "trial", 10 * HOUR),
        client("trial-over", "trial", -HOUR),
        client("suspended", "suspended", 5 * DAY),
        client("expired", "expired", -30 * DAY),
      ]);
    const lastMonth = new Date(monthStart.getTime() - HOUR);
    const payment = (ref: string, provider: string, status: string, amount: number, paid_at: Date | null) => ({
      provider,
      external_transaction_id: ref,
      amount,
      status,
      paid_at,
    });
    await t.app.db
      .insert(capturedPayments)
      .values([
        payment("S1", "sandbox", "paid", 1450, now),
        payment("S2", "manual", "paid", 199.99, now),
        payment("S3", "eft", "paid", 650, lastMonth),
        payment("S4", "sandbox", "refunded", 100, now),
        payment("S5", "eft", "pending", 650, null),
        payment("S6", "eft", "pending", 1450, null),
        payment("S7", "sandbox", "pending", 650, null),
      ]);
    // S1's refund was sent to the provider and its answer lost: held; S2's went through (done)
    const [s1, s2] = await t.app.db
      .select()
      .from(capturedPayments)
      .where(inArray(capturedPayments.external_transaction_id, ["S1", "S2"]))
      .orderBy(capturedPayments.external_transaction_id);
    await t.app.db.insert(refundAttempts).values([
      { payment_id: s1.id, provider: "sandbox", amount_cents: 10000, sent_at: now, request: { reason: "Lost answer" } },
      { payment_id: s2.id, provider: "sandbox", amount_cents: 5000, sent_at: now, state: "done", request: { reason: "Made" } },
    ]);
    await t.app.db.insert(outbox).values([
      { channel: "email", recipient: "a@example.co.za", body: "x", status: "failed" },
      { channel: "email", recipient: "b@example.co.za", body: "x", status: "sent" },
    ]);

    const response = await admin.call({ method: "GET", url: "/api/admin/stats" });
    expect(response.statusCode).toBe(200);
    const stats = response.json();
    expect(stats).toMatchObject({
      leads_today: 1,
      leads_week: 3,
      active_clients: 2,
      live_trials: 1,
      // Only a paid term ending soon is "expiring": a trial is a trial.
      expiring_7d: 1,
      revenue_month: 1649.99,
      eft_awaiting: 2,
      outbox_failed: 1,
      refunds_held: 1,
    });

    const days = seriesDays(now);
    expect(days).toHaveLength(30);
    expect(days[29]).toBe(saDay(now));
    expect(stats.leads_per_day.map((d: { date: string }) => d.date)).toEqual(days);
    const expectedLeads = new Map<string, number>();
    for (const time of leadTimes) if (days.includes(saDay(time))) expectedLeads.set(saDay(time), (expectedLeads.get(saDay(time)) ?? 0) + 1);
    expect(stats.leads_per_day.filter((d: { count: number }) => d.count > 0)).toEqual(
      days.filter((d) => expectedLeads.has(d)).map((date) => ({ date, count: expectedLeads.get(date) })),
    );
    const revenue = new Map(stats.revenue_per_day.map((d: { date: string; amount: number }) => [d.date, d.amount]));
    expect(stats.revenue_per_day.map((d: { date: string }) => d.date)).toEqual(days);
    expect(revenue.get(saDay(now))).toBe(1649.99);
    if (days.includes(saDay(lastMonth))) expect(revenue.get(saDay(lastMonth))).toBe(650);
    const total = stats.revenue_per_day.reduce((sum: number, d: { amount: number }) => sum + Math.round(d.amount * 100), 0);
    expect(total).toBe(164999 + (days.includes(saDay(lastMonth)) ? 65000 : 0));
  });
});

describe("CSV exports", () => {
  beforeAll(async () => {
    const base = Date.now() - 2 * DAY;
    await t.app.db.insert(leads).values(
      Array.from({ length: 30 }, (_, i) => ({
        form_type: i % 3 === 0 ? "interest" : "order",
        name: `Export Lead ${String(i).padStart(2, "0")}`,
        email: `export${i}@example.co.za`,
        whatsapp: "082 555 0000",
        status: i % 2 === 0 ? "new" : "contacted",
        created_at: new Date(base + i * 60_000),
      })),
    );
    await t.app.db.insert(leads).values([
      {
        form_type: "order",
        name: '=HYPERLINK("http://evil.example","Click")',
        email: "evil@example.co.za",
        status: "new",
        created_at: new Date(base),
      },
      { form_type: "order", name: 'Export Smith, "Jr"', email: "smith@example.co.za", notes: "@SUM(1+1)\nsecond line", status: "new" },
    ]);
  });

  it("exports exactly the filtered list, every page, with a header row and a dated attachment name", async () => {
    const query = "q=export&status=new";
    const page = await admin.call({ method: "GET", url: `/api/admin/leads?${query}` });
    const { data: firstPage, total } = page.json();
    expect(total).toBe(16);
    expect(firstPage).toHaveLength(16);
    const everything = await admin.call({ method: "GET", url: `/api/admin/leads?${query}&pageSize=200` });

    const response = await admin.call({ method: "GET", url: `/api/admin/export/leads.csv?${query}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="leads-${saDay(new Date())}.csv"`);
    expect(response.body.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = parseCsv(response.body.slice(1));
    expect(header.slice(0, 5)).toEqual(["id", "created_at", "form_type", "status", "name"]);
    expect(rows.map((r) => r[0])).toEqual(everything.json().data.map((l: { id: string }) => l.id));
    const smith = rows.find((r) => r[4] === 'Export Smith, "Jr"');
    expect(smith?.[header.indexOf("notes")]).toBe("'@SUM(1+1)\nsecond line");

    // More than one page: the export holds all of them.
    const all = await admin.call({ method: "GET", url: "/api/admin/leads?q=export%20lead" });
    expect(all.json()).toMatchObject({ total: 30 });
    expect(all.json().data).toHaveLength(25);
    const csv = await admin.call({ method: "GET", url: "/api/admin/export/leads.csv?q=export%20lead&sort=name&dir=asc" });
    const names = parseCsv(csv.body.slice(1))
      .slice(1)
      .map((r) => r[4]);
    expect(names).toEqual(Array.from({ length: 30 }, (_, i) => `Export Lead ${String(i).padStart(2, "0")}`));
  });

  it("neutralises a formula in a cell", async () => {
    const response = await admin.call({ method: "GET", url: "/api/admin/export/leads.csv?q=evil%40" });
    const rows = parseCsv(response.body.slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[1][4]).toBe('\'=HYPERLINK("http://evil.example","Click")');
    expect(response.body).toContain('"\'=HYPERLINK(""http://evil.example"",""Click"")"');
  });

  it("exports clients and payments with the lists' filters, without passwords", async () => {
    const clientsCsv = await admin.call({ method: "GET", url: "/api/admin/export/clients.csv?status=active" });
    expect(clientsCsv.statusCode).toBe(200);
    const [clientHeader, ...clientRows] = parseCsv(clientsCsv.body.slice(1));
    expect(clientHeader).not.toContain("password_hash");
    expect(clientHeader).not.toContain("line_password");
    const list = await admin.call({ method: "GET", url: "/api/admin/clients?status=active" });
    expect(clientRows.map((r) => r[0])).toEqual(list.json().data.map((c: { id: string }) => c.id));

    const paymentsCsv = await admin.call({ method: "GET", url: "/api/admin/export/payments.csv?provider=eft" });
    const [paymentHeader, ...paymentRows] = parseCsv(paymentsCsv.body.slice(1));
    expect(paymentsCsv.headers["content-disposition"]).toContain("payments-");
    const payments = await admin.call({ method: "GET", url: "/api/admin/payments?provider=eft" });
    expect(paymentRows.map((r) => r[0])).toEqual(payments.json().data.map((p: { id: string }) => p.id));
    expect(paymentRows.map((r) => r[paymentHeader.indexOf("amount")]).sort()).toEqual(["1450.00", "650.00", "650.00"]);
  });

  it("is for admins only", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/admin/export/leads.csv" })).statusCode).toBe(401);
  });
});

describe("content requests", () => {
  let requestId: string;
  let clientId: string;

  beforeAll(async () => {
    const [client] = await t.app.db
      .insert(clients)
      .values({
        username: "carmen",
        full_name: "Carmen Daniels",
        password_hash: "x",
        whatsapp: "27825551111",
        email: "carmen@example.co.za",
      })
      .returning();
    clientId = client.id;
    const [request] = await t.app.db
      .insert(contentRequests)
      .values({ client_id: client.id, title: "Showmax Originals", request_type: "series" })
      .returning();
    requestId = request.id;
    await t.app.db.insert(contentRequests).values({ client_id: client.id, title: "Old request", status: "declined" });
  });

  const repliesTo = () =>
    t.app.db
      .select()
      .from(outbox)
      // the reply itself, not the e-mail copy the outbox adds to WhatsApp without the Cloud API
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "content-request-reply"), eq(outbox.channel, "whatsapp")));

  it("lists by status with the client's name", async () => {
    const response = await admin.call({ method: "GET", url: "/api/admin/content-requests?status=new" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      total: 1,
      data: [{ id: requestId, title: "Showmax Originals", client_username: "carmen", client_full_name: "Carmen Daniels" }],
    });
  });

  it("a status change alone sends nothing; a reply goes to the client on their channel, once", async () => {
    const status = await admin.call({
      method: "PATCH",
      url: `/api/admin/content-requests/${requestId}`,
      payload: { status: "in_progress" },
    });
    expect(status.statusCode).toBe(200);
    expect(status.json().data.status).toBe("in_progress");
    expect(await repliesTo()).toHaveLength(0);

    const reply = { status: "added", reply: "It's in the Series section under Showmax." };
    const response = await admin.call({ method: "PATCH", url: `/api/admin/content-requests/${requestId}`, payload: reply });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject(reply);
    const messages = await repliesTo();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channel: "whatsapp", recipient: "27825551111" });
    expect(messages[0].body).toContain('About your request for "Showmax Originals": Good news: it\'s been added.');
    expect(messages[0].body).toContain(reply.reply);
    expect(messages[0].body).toContain("— StreamDesk");

    await admin.call({ method: "PATCH", url: `/api/admin/content-requests/${requestId}`, payload: reply });
    expect(await repliesTo()).toHaveLength(1);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "content_requests"), eq(auditLog.resource_id, requestId)));
    expect(audits).toHaveLength(3);
    const bad = await admin.call({ method: "PATCH", url: `/api/admin/content-requests/${requestId}`, payload: { status: "done" } });
    expect(bad.statusCode).toBe(400);
  });
});
