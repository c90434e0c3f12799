// Server-side WhatsApp: the Cloud API when WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID are set
// (docs/architecture.md, "Integrations"). Without them there is no transport: the outbox worker
// puts WhatsApp messages in the owner's "To send on WhatsApp" queue (wa.me links).
//   POST {WHATSAPP_API_URL}/{phone-number-id}/messages, Authorization: Bearer <token>
//   text:     {messaging_product: "whatsapp", to, type: "text", text: {body}}
//   template: {..., type: "template", template: {name, language: {code}, components: [{type: "body", parameters}]}}
// The answer names the message: {"messages": [{"id": "wamid…"}]}; webhook statuses refer to it.

export interface WhatsAppTemplateMessage {
  name: string;
  language: string;
  /** the positional body parameters {{1}}, {{2}}, ... in order */
  parameters: string[];
  /** an authentication template's one-time code, for its copy-code (URL) button */
  copyCode?: string;
}

export interface WhatsAppSent {
  /** the Cloud API's message id (wamid…) */
  id: string;
}

export interface WhatsAppTransport {
  readonly name: string;
  /** free text: delivered only inside the 24-hour window. `to` is 27821234567 (no '+') */
  send(to: string, text: string): Promise<WhatsAppSent>;
  /** an approved template: goes through at any time */
  sendTemplate(to: string, template: WhatsAppTemplateMessage): Promise<WhatsAppSent>;
}

/** Graph error codes that mean "outside the 24-hour window" (re-engagement needed). */
export const WINDOW_CLOSED_CODES = new Set([131047]);

/** A refused send. `permanent`: sending the same request again cannot help (a bad request). */
export class WhatsAppSendError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

interface GraphError {
  error?: { message?: string; code?: number; error_subcode?: number; error_data?: { details?: string } };
}

export function createCloudApiTransport(apiUrl: string, phoneNumberId: string, token: string): WhatsAppTransport {
  const endpoint = `${apiUrl.replace(/\/$/, "")}/${encodeURIComponent(phoneNumberId)}/messages`;

  async function post(payload: Record<string, unknown>): Promise<WhatsAppSent> {
    const response = await fetch(endpoint, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ messaging_product: "whatsapp", recipient_type: "individual", ...payload }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text().catch(() => "");
    let answer: unknown = null;
    try {
      answer = JSON.parse(text);
    } catch {
      // described below
    }
    if (!response.ok) {
      const error = (answer as GraphError | null)?.error;
      const detail = error?.message
        ? `${error.code ? `(#${error.code}) ` : ""}${error.message}${error.error_data?.details ? `: ${error.error_data.details}` : ""}`
        : text.slice(0, 300);
      // 400s are the request's fault (bad number, template or parameters); 401/403 (a token to
      // renew), 429 and 5xx may pass later.
      const permanent = response.status === 400 || response.status === 404;
      throw new WhatsAppSendError(
        `WhatsApp Cloud API answered ${response.status}: ${detail}`.slice(0, 500),
        response.status,
        error?.code ?? null,
        permanent,
      );
    }
    const id = (answer as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
    if (typeof id !== "string" || !id) {
      throw new WhatsAppSendError(`WhatsApp Cloud API answered ${response.status} without a message id`, response.status, null, false);
    }
    return { id };
  }

  return {
    name: "whatsapp-cloud-api",
    send: (to, text) => post({ to, type: "text", text: { body: text, preview_url: false } }),
    sendTemplate: (to, template) =>
      post({
        to,
        type: "template",
        template: {
          name: template.name,
          language: { code: template.language },
          components: [
            ...(template.parameters.length
              ? [{ type: "body", parameters: template.parameters.map((text) => ({ type: "text", text })) }]
              : []),
            ...(template.copyCode
              ? [{ type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: template.copyCode }] }]
              : []),
          ],
        },
      }),
  };
}
