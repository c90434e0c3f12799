// The WhatsApp inbox without the Cloud API: webhooks still arrive (Meta can be set up to send them
// before a sending token exists), a reply is kept as sent by the owner and answered with the
// wa.me link that sends it, and nothing waiting in the owner's queue is moved.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hubSignature, inboundMessage, webhookPayload } from "@/server/adapters/fake-whatsapp-cloud";
import { auditLog, outbox } from "@/server/db/schema";
import { enqueue } from "@/server/lib/outbox";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

const APP_SECRET = "owner-app-secret";
let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({ WHATSAPP_APP_SECRET: APP_SECRET }, { seed: false });
  cookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

const headers = () => ({ origin: "http://localhost:8080", cookie });

describe("the inbox without the Cloud API", () => {
  it("keeps the reply as sent by the owner and answers its wa.me link; the owner's queue stays", async () => {
    await enqueue(t.app.db, { channel: "whatsapp", recipient: "27825553001", body: "Your receipt", kind: "receipt" });
    await t.app.outbox.drain();
    const body = JSON.stringify(webhookPayload({ messages: [inboundMessage("27825553001", "Hi!")] }));
    const hook = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp/webhook",
      headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
      payload: body,
    });
    expect(hook.statusCode).toBe(200);
    const [queued] = await t.app.db.select().from(outbox);
    expect(queued.status).toBe("owner");

    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/inbox/27825553001/reply",
      headers: headers(),
      payload: { text: "Hi! Sending the details now." },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.waLink).toBe(`https://wa.me/27825553001?text=${encodeURIComponent("Hi! Sending the details now.")}`);
    expect(data.message).toMatchObject({ direction: "out", status: "owner", sent_via: "wa.me", wamid: null });

    const thread = (await t.app.inject({ method: "GET", url: "/api/admin/inbox/27825553001", headers: headers() })).json().data;
    expect(thread.cloud_api).toBe(false);
    // (Meta's timestamps are whole seconds: the receipt and "Hi!" may share one)
    expect(thread.messages.map((m: { text: string }) => m.text).sort()).toEqual(["Hi!", "Hi! Sending the details now.", "Your receipt"]);
    expect(thread.messages.at(-1).text).toBe("Hi! Sending the details now.");
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, data.message.id));
    expect(entry).toMatchObject({ action: "reply" });
    expect((await t.app.db.select().from(outbox))[0].status).toBe("owner");
  });
});
