// A portal password for a client the admin made in a spec. Nobody is handed a password (issue
// 25): the client's welcome carries a link to choose one. On this server (no Cloud API) a
// WhatsApp welcome waits in the owner's queue, whose chat link fills the link in, as the owner
// sends it; the spec then chooses the password through that link, as the client would.
import { type APIRequestContext, expect } from "@playwright/test";
import { ownOrigin } from "./e2e-env";

/** A South African number no other client of the run has: 27 8x xxx xxxx. */
export function uniqueWhatsApp(): string {
  return `2786${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
}

/** Chooses `password` for the client whose WhatsApp number is `number`, with the link in their welcome. */
export async function choosePassword(request: APIRequestContext, number: string, password = `Portal-${Date.now().toString(36)}-kite`) {
  let welcomeId = "";
  await expect(async () => {
    const list = await request.get(`/api/admin/outbox?q=${encodeURIComponent(number)}`);
    const rows = ((await list.json()) as { data: { id: string; kind: string; channel: string }[] }).data;
    welcomeId = rows.find((m) => m.kind === "welcome" && m.channel === "whatsapp")?.id ?? "";
    expect(welcomeId).not.toBe("");
  }).toPass({ timeout: 10_000 });
  const chat = await request.post(`/api/admin/outbox/${welcomeId}/chat-link`, { headers: ownOrigin() });
  const url = decodeURIComponent(((await chat.json()) as { url: string }).url);
  const token = /client-password-reset\?token=([A-Za-z0-9_-]{43})/.exec(url)?.[1];
  expect(token, url).toBeTruthy();
  const chosen = await request.post("/api/client/password-reset/confirm", { data: { token, password }, headers: ownOrigin() });
  expect(chosen.ok(), await chosen.text()).toBe(true);
  return password;
}
