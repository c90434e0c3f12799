// A local stand-in for the WhatsApp Cloud API (Graph `/{phone-number-id}/messages`), for tests
// only. It checks what the real service checks — the bearer token, the phone number id, the
// body's shape, that a template is approved in that language with that many parameters — answers
// {"messages":[{"id":"wamid…"}]} or a Graph error, and builds and posts the signed webhooks Meta
// would send (inbound messages, delivery statuses). It also keeps a WhatsApp Business Account's
// message templates (`/{waba-id}/message_templates`): create (checked as Meta documents: name,
// language, category, components, {{n}} parameters in order with examples, no duplicate name in a
// language) answering {id, status: "PENDING", category}; list as {data, paging}; a test hook
// plays Meta's review (approve, reject with a reason, any other status). An approved template can
// be sent with its body's number of parameters.
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeWhatsAppMessage {
  id: string;
  to: string;
  type: "text" | "template";
  text?: string;
  /** button: an authentication template's copy-code button parameter (the code), when sent */
  template?: { name: string; language: string; parameters: string[]; button?: string };
  /** the request body as sent */
  raw: Record<string, unknown>;
}

export interface FakeTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason?: string;
  components: Record<string, unknown>[];
}

export interface FakeWhatsAppCloud {
  /** use as WHATSAPP_API_URL (a versioned base, like https://graph.facebook.com/v21.0) */
  url: string;
  messages: FakeWhatsAppMessage[];
  /** every request: path, authorization header, status answered */
  requests: { path: string; authorization: string | undefined; status: number }[];
  /** approve a template: name → language and number of body parameters */
  approve(name: string, language: string, parameterCount: number): void;
  /** the business account's templates, as created */
  templates: FakeTemplate[];
  /** Meta's review of a created template: APPROVED (then sendable), REJECTED with a reason, or any status Meta may give */
  review(name: string, status: string, rejectedReason?: string): void;
  /** the next template create is refused with this as Meta's error_user_msg */
  refuseNextCreate(userMessage: string): void;
  /** the next send answers this Graph error */
  failNext(status: number, code: number, message: string): void;
  close(): Promise<void>;
}

const graphError = (message: string, code: number, details?: string) => ({
  error: {
    message,
    type: "OAuthException",
    code,
    ...(details ? { error_data: { details } } : {}),
    fbtrace_id: randomBytes(8).toString("hex"),
  },
});

const templateError = (subcode: number, title: string, userMessage: string) => ({
  error: {
    message: "Invalid parameter",
    type: "OAuthException",
    code: 100,
    error_subcode: subcode,
    is_transient: false,
    error_user_title: title,
    error_user_msg: userMessage,
    fbtrace_id: randomBytes(8).toString("hex"),
  },
});

/** What Meta checks of a new template; the refusal as Meta words it, or null. */
function templateProblem(body: Record<string, unknown>): { subcode: number; title: string; message: string } | null {
  const invalid = (message: string) => ({ subcode: 2388043, title: "Invalid template", message });
  if (typeof body.name !== "string" || !/^[a-z0-9_]{1,512}$/.test(body.name)) {
    return invalid("Template names can only contain lowercase alphanumeric characters and underscores.");
  }
  if (typeof body.language !== "string" || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(body.language)) return invalid("Invalid language.");
  if (!["AUTHENTICATION", "UTILITY", "MARKETING"].includes(String(body.category))) return invalid("Invalid category.");
  const components = Array.isArray(body.components) ? (body.components as Record<string, unknown>[]) : null;
  if (!components?.length) return invalid("components is required.");
  const bodyPart = components.find((c) => c.type === "BODY");
  if (!bodyPart) return invalid("A template needs a BODY component.");
  if (body.category === "AUTHENTICATION") {
    if (typeof bodyPart.text === "string") return invalid("Authentication templates use a preset body: text is not allowed.");
    const buttons = components.find((c) => c.type === "BUTTONS")?.buttons as { type?: unknown; otp_type?: unknown }[] | undefined;
    if (!buttons?.some((b) => b.type === "OTP" && ["COPY_CODE", "ONE_TAP", "ZERO_TAP"].includes(String(b.otp_type)))) {
      return invalid("Authentication templates need one OTP button.");
    }
    return null;
  }
  const text = bodyPart.text;
  if (typeof text !== "string" || !text.trim() || text.length > 1024) return invalid("The body text must be 1 to 1024 characters.");
  const numbers = [...text.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1]));
  if (numbers.some((n, i) => n !== i + 1)) {
    return {
      subcode: 2388273,
      title: "Invalid variable parameter",
      message: "Variable parameters must be numbered in order, starting at {{1}}.",
    };
  }
  if (/^\s*\{\{\d+\}\}|\{\{\d+\}\}[\s.!?]*$/.test(text)) {
    return {
      subcode: 2388299,
      title: "Variables can't be at the start or end of the template",
      message: "Variables can't be at the start or end of the template.",
    };
  }
  const example = (bodyPart.example as { body_text?: unknown } | undefined)?.body_text;
  if (numbers.length && (!Array.isArray(example) || !Array.isArray(example[0]) || example[0].length !== numbers.length)) {
    return invalid("Add a sample for each variable parameter (example.body_text).");
  }
  return null;
}

/** How many body parameters a template is sent with: its {{n}} (an authentication template's one: the code). */
function parameterCount(template: FakeTemplate): number {
  if (template.category === "AUTHENTICATION") return 1;
  const text = template.components.find((c) => c.type === "BODY")?.text;
  return typeof text === "string" ? [...text.matchAll(/\{\{\d+\}\}/g)].length : 0;
}

export async function startFakeWhatsAppCloud(options: {
  token: string;
  phoneNumberId: string;
  /** the WhatsApp Business Account whose templates it keeps */
  businessAccountId?: string;
}): Promise<FakeWhatsAppCloud> {
  const messages: FakeWhatsAppMessage[] = [];
  const templates: FakeTemplate[] = [];
  let refusal: string | null = null;
  const templatesPath = `/v21.0/${options.businessAccountId ?? "WABA-ID"}/message_templates`;
  const requests: FakeWhatsAppCloud["requests"] = [];
  const approved = new Map<string, number>();
  let failure: { status: number; code: number; message: string } | null = null;
  const expectedPath = `/v21.0/${options.phoneNumberId}/messages`;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const log = { path, authorization: req.headers.authorization, status: 0 };
    requests.push(log);
    const answer = (status: number, body: unknown) => {
      log.status = status;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      return answer(401, graphError("Invalid OAuth access token - Cannot parse access token", 190));
    }
    if (path === templatesPath) {
      if (req.method === "GET") {
        return answer(200, {
          data: templates.map((t) => ({
            name: t.name,
            language: t.language,
            status: t.status,
            category: t.category,
            id: t.id,
            ...(t.rejected_reason ? { rejected_reason: t.rejected_reason } : {}),
          })),
          paging: { cursors: { before: "MAZDZD", after: "MjQZD" } },
        });
      }
      if (req.method !== "POST") return answer(400, graphError(`Unsupported ${req.method} request.`, 100));
      let draft: Record<string, unknown>;
      try {
        draft = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return answer(400, graphError("(#100) The parameter name is required.", 100));
      }
      if (refusal) {
        const message = refusal;
        refusal = null;
        return answer(400, templateError(2388040, "Template refused", message));
      }
      const problem = templateProblem(draft);
      if (problem) return answer(400, templateError(problem.subcode, problem.title, problem.message));
      if (templates.some((t) => t.name === draft.name && t.language === draft.language)) {
        return answer(
          400,
          templateError(
            2388024,
            "Message template already exists",
            `There is already ${draft.language} content for this template. You can create a new template and try again.`,
          ),
        );
      }
      const created: FakeTemplate = {
        id: String(1_000_000_000_000 + templates.length + 1),
        name: String(draft.name),
        language: String(draft.language),
        category: String(draft.category),
        status: "PENDING",
        components: draft.components as Record<string, unknown>[],
      };
      templates.push(created);
      return answer(200, { id: created.id, status: created.status, category: created.category });
    }
    if (req.method !== "POST" || path !== expectedPath) {
      return answer(400, graphError(`Unsupported ${req.method} request. Object with ID does not exist`, 100));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return answer(400, graphError("(#100) The parameter messaging_product is required.", 100));
    }
    const bad = (details: string) => answer(400, graphError("(#100) Invalid parameter", 100, details));
    if (body.messaging_product !== "whatsapp") return bad("messaging_product must be whatsapp");
    if (typeof body.to !== "string" || !/^\d{8,15}$/.test(body.to)) return bad("to must be the number's digits");
    if (failure) {
      const f = failure;
      failure = null;
      return answer(f.status, graphError(f.message, f.code));
    }
    const id = `wamid.${randomBytes(12).toString("hex")}`;
    if (body.type === "text") {
      const text = (body.text as { body?: unknown } | undefined)?.body;
      if (typeof text !== "string" || !text.trim() || text.length > 4096) return bad("text.body must be 1 to 4096 characters");
      messages.push({ id, to: body.to, type: "text", text, raw: body });
    } else if (body.type === "template") {
      const template = body.template as
        | {
            name?: unknown;
            language?: { code?: unknown };
            components?: { type?: unknown; sub_type?: unknown; parameters?: { type?: unknown; text?: unknown }[] }[];
          }
        | undefined;
      const name = template?.name;
      const language = template?.language?.code;
      if (typeof name !== "string" || typeof language !== "string") return bad("template.name and template.language.code are required");
      const components = template?.components ?? [];
      if (!Array.isArray(components)) return bad("template.components must be an array");
      const parameters: string[] = [];
      let button: string | undefined;
      for (const component of components) {
        // An authentication template's copy-code button: {type: "button", sub_type: "url", index: "0", parameters: [{type: "text", text: code}]}
        if (component.type === "button") {
          const copy = component as { sub_type?: unknown; index?: unknown; parameters?: { type?: unknown; text?: unknown }[] };
          const code = copy.parameters?.[0];
          if (
            copy.sub_type !== "url" ||
            String(copy.index) !== "0" ||
            copy.parameters?.length !== 1 ||
            code?.type !== "text" ||
            typeof code.text !== "string" ||
            !code.text
          ) {
            return bad("a button component is {type: button, sub_type: url, index: 0, parameters: [{type: text, text}]}");
          }
          button = code.text;
          continue;
        }
        if (component.type !== "body" || !Array.isArray(component.parameters))
          return bad("only body and button components with parameters");
        for (const p of component.parameters) {
          if (p.type !== "text" || typeof p.text !== "string" || !p.text) return bad("parameters must be {type: text, text}");
          if (/[\n\t]| {5,}/.test(p.text)) {
            return answer(400, graphError("(#132018) There was an issue with the parameters in your template.", 132018));
          }
          parameters.push(p.text);
        }
      }
      const count = approved.get(`${name}/${language}`);
      if (count === undefined) {
        return answer(404, graphError(`(#132001) Template name does not exist in the translation: ${name} (${language})`, 132001));
      }
      if (count !== parameters.length) {
        return answer(400, graphError(`(#132000) Number of parameters does not match the expected number of params`, 132000));
      }
      messages.push({
        id,
        to: body.to,
        type: "template",
        template: { name, language, parameters, ...(button ? { button } : {}) },
        raw: body,
      });
    } else {
      return bad("type must be text or template");
    }
    return answer(200, { messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(graphError(String(error), 1)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v21.0`,
    messages,
    requests,
    approve(name, language, parameterCount) {
      approved.set(`${name}/${language}`, parameterCount);
    },
    templates,
    review(name, status, rejectedReason) {
      const template = templates.find((t) => t.name === name);
      if (!template) throw new Error(`the fake has no template ${name}`);
      template.status = status;
      template.rejected_reason = status === "REJECTED" ? (rejectedReason ?? "INVALID_FORMAT") : undefined;
      if (status === "APPROVED") approved.set(`${template.name}/${template.language}`, parameterCount(template));
      else approved.delete(`${template.name}/${template.language}`);
    },
    refuseNextCreate(userMessage) {
      refusal = userMessage;
    },
    failNext(status, code, message) {
      failure = { status, code, message };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// ---- webhooks, as Meta sends them ------------------------------------------------------------

type Value = { messages?: unknown[]; statuses?: unknown[]; contacts?: unknown[] };

export function webhookPayload(value: Value): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "WABA-ID",
        changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { phone_number_id: "PNID" }, ...value } }],
      },
    ],
  };
}

export function inboundMessage(from: string, text: string, at = new Date()) {
  return {
    from,
    id: `wamid.in${randomBytes(8).toString("hex")}`,
    timestamp: String(Math.floor(at.getTime() / 1000)),
    type: "text",
    text: { body: text },
  };
}

export function deliveryStatus(
  id: string,
  status: "sent" | "delivered" | "read" | "failed",
  recipient: string,
  error?: { code: number; title: string },
) {
  return {
    id,
    status,
    recipient_id: recipient,
    timestamp: String(Math.floor(Date.now() / 1000)),
    ...(error ? { errors: [error] } : {}),
  };
}

/** The X-Hub-Signature-256 header Meta sends with a body. */
export function hubSignature(body: string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
}
