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

/**
 * One call to Meta's Graph API with the account's token: the answer's text, and its JSON when it
 * is JSON (null otherwise: each caller describes a failure in its own words).
 */
async function graphRequest(url: string, token: string, init: RequestInit): Promise<{ response: Response; text: string; answer: unknown }> {
  const response = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text().catch(() => "");
  let answer: unknown = null;
  try {
    answer = JSON.parse(text);
  } catch {
    // not JSON: left null
  }
  return { response, text, answer };
}

export function createCloudApiTransport(apiUrl: string, phoneNumberId: string, token: string): WhatsAppTransport {
  const endpoint = `${apiUrl.replace(/\/$/, "")}/${encodeURIComponent(phoneNumberId)}/messages`;

  async function post(payload: Record<string, unknown>): Promise<WhatsAppSent> {
    const { response, text, answer } = await graphRequest(endpoint, token, {
      method: "POST",
      body: JSON.stringify({ messaging_product: "whatsapp", recipient_type: "individual", ...payload }),
    });
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

// ---- message templates (the WhatsApp Business Account) -----------------------------------------
//   POST {WHATSAPP_API_URL}/{waba-id}/message_templates {name, language, category, components} → {id, status, category}
//   GET  {WHATSAPP_API_URL}/{waba-id}/message_templates?fields=name,status,category,language,rejected_reason
//        → {data: [{name, language, status, category, id, rejected_reason?}], paging: {cursors, next?}}

/** A template as Meta takes it: components in Meta's own shape (BODY, FOOTER, BUTTONS). */
export interface MetaTemplateDraft {
  name: string;
  language: string;
  category: "AUTHENTICATION" | "UTILITY";
  components: Record<string, unknown>[];
}

export interface MetaTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  rejected_reason: string | null;
}

/** Meta refused a template request; `message` is Meta's own words (error_user_msg when it gave one). */
export class WhatsAppTemplateError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
    readonly subcode: number | null,
  ) {
    super(message);
  }

  /** Meta already has a template by that name and language (error_subcode 2388024). */
  get exists(): boolean {
    return this.subcode === 2388024;
  }
}

export interface WhatsAppTemplateManager {
  create(draft: MetaTemplateDraft): Promise<{ id: string; status: string; category: string }>;
  /** every template of the account, all pages */
  list(): Promise<MetaTemplate[]>;
}

interface GraphTemplateError {
  error?: { message?: string; code?: number; error_subcode?: number; error_user_title?: string; error_user_msg?: string };
}

const MAX_PAGES = 20;

export function createTemplateManager(apiUrl: string, businessAccountId: string, token: string): WhatsAppTemplateManager {
  const endpoint = `${apiUrl.replace(/\/$/, "")}/${encodeURIComponent(businessAccountId)}/message_templates`;

  async function call(url: string, init: RequestInit = {}): Promise<unknown> {
    const { response, text, answer } = await graphRequest(url, token, init);
    if (!response.ok) {
      const error = (answer as GraphTemplateError | null)?.error;
      const words = error?.error_user_msg || error?.message || text.slice(0, 300) || `HTTP ${response.status}`;
      throw new WhatsAppTemplateError(words.slice(0, 1000), response.status, error?.code ?? null, error?.error_subcode ?? null);
    }
    return answer;
  }

  return {
    async create(draft) {
      const answer = (await call(endpoint, { method: "POST", body: JSON.stringify(draft) })) as {
        id?: unknown;
        status?: unknown;
        category?: unknown;
      };
      if (typeof answer?.id !== "string") throw new WhatsAppTemplateError("Meta answered without a template id", 200, null, null);
      return { id: answer.id, status: String(answer.status ?? ""), category: String(answer.category ?? draft.category) };
    },
    async list() {
      const templates: MetaTemplate[] = [];
      let url: string | null = `${endpoint}?fields=name,status,category,language,rejected_reason&limit=100`;
      for (let page = 0; url && page < MAX_PAGES; page++) {
        const answer = (await call(url)) as { data?: unknown; paging?: { next?: unknown } } | null;
        for (const item of Array.isArray(answer?.data) ? answer.data : []) {
          const t = item as Record<string, unknown>;
          if (typeof t.name !== "string") continue;
          templates.push({
            id: String(t.id ?? ""),
            name: t.name,
            language: String(t.language ?? ""),
            status: String(t.status ?? ""),
            category: String(t.category ?? ""),
            rejected_reason: typeof t.rejected_reason === "string" && t.rejected_reason !== "NONE" ? t.rejected_reason : null,
          });
        }
        url = typeof answer?.paging?.next === "string" ? answer.paging.next : null;
      }
      return templates;
    },
  };
}
