// Server-side WhatsApp: the Cloud API when WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID are set.
// Without them there is no transport and messages wait in the outbox. (In the browser the
// product uses wa.me click-to-chat links, which need no API.)
export interface WhatsAppTransport {
  readonly name: string;
  /** `to` is the international number without '+', e.g. 27821234567 */
  send(to: string, text: string): Promise<void>;
}

export function createCloudApiTransport(apiUrl: string, phoneNumberId: string, token: string): WhatsAppTransport {
  const endpoint = `${apiUrl.replace(/\/$/, "")}/${encodeURIComponent(phoneNumberId)}/messages`;
  return {
    name: "whatsapp-cloud-api",
    async send(to, text) {
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ messaging_product: "whatsapp", to, type: "text", text: { body: text, preview_url: false } }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) {
        const detail = (await response.text().catch(() => "")).slice(0, 300);
        throw new Error(`WhatsApp Cloud API answered ${response.status}: ${detail}`);
      }
    },
  };
}
