// What the owner sends by hand on this server, which has no WhatsApp Cloud API: a WhatsApp
// message waits in the owner's queue, and its chat link (audited) carries the text with any
// secret filled in. Specs read set-password links from there, as a customer reads them from the
// chat the owner sends. One-time codes never wait there (mailbox.ts's codeMailedTo reads them).
import { type APIRequestContext, expect } from "@playwright/test";
import { ownOrigin } from "./e2e-env";

/** A South African number no other client of the run has: 27 8x xxx xxxx. */
export function uniqueWhatsApp(): string {
  return `2786${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
}

/**
 * The text of the newest waiting WhatsApp message of `kind` to `number`, as its chat link carries
 * it. `server` is the shop's address (a spec running its own server passes its own; the suite's
 * by default), for the admin request's URLs and Origin.
 */
export async function chatText(request: APIRequestContext, number: string, kind: string, server = ""): Promise<string> {
  let id = "";
  await expect(async () => {
    const list = await request.get(`${server}/api/admin/outbox?q=${encodeURIComponent(number)}`);
    const rows = ((await list.json()) as { data: { id: string; kind: string; channel: string }[] }).data;
    id = rows.find((m) => m.kind === kind && m.channel === "whatsapp")?.id ?? "";
    expect(id).not.toBe("");
  }).toPass({ timeout: 10_000 });
  const chat = await request.post(`${server}/api/admin/outbox/${id}/chat-link`, { headers: server ? { origin: server } : ownOrigin() });
  return decodeURIComponent(((await chat.json()) as { url: string }).url);
}

/** Chooses `password` for the client whose WhatsApp number is `number`, with the link in their welcome (`server`: as chatText). */
export async function choosePassword(
  request: APIRequestContext,
  number: string,
  password = `Portal-${Date.now().toString(36)}-kite`,
  server = "",
) {
  const text = await chatText(request, number, "welcome", server);
  const token = /client-password-reset\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  expect(token, text).toBeTruthy();
  const chosen = await request.post(`${server}/api/client/password-reset/confirm`, {
    data: { token, password },
    headers: server ? { origin: server } : ownOrigin(),
  });
  expect(chosen.ok(), await chosen.text()).toBe(true);
  return password;
}
