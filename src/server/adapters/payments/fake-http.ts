// HTTP plumbing the payment providers' fakes share, for our fakes only: posting what a fake
// provider sends to the shop (a notification, ITN, webhook or callback) and stopping a fake's
// server. It knows no provider's protocol and, like every fake, imports nothing from the adapters.
import type { Server } from "node:http";

/** POSTs a fake provider's message to the shop, as the provider would, and reads what the shop answered. */
export async function fakePost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.text() };
}

/** Stops a fake's server, dropping its kept-alive connections so a test never waits on them. */
export function closeFakeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });
}
