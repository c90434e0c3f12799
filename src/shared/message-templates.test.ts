import { describe, expect, it } from "vitest";
import {
  messageTemplateSchemaFor,
  renderTemplate,
  SECRET_VARIABLES,
  saysEmail,
  subjectVariables,
  TEMPLATE_DEFINITIONS,
  TEMPLATE_KINDS,
  templateFieldErrors,
  templateProblems,
  templateVariables,
  WHATSAPP_EMAIL_WORD_MESSAGE,
} from "./message-templates";

describe("the default templates", () => {
  it("keep today's words: the welcome", () => {
    expect(TEMPLATE_DEFINITIONS.welcome.subject).toBe("Welcome to {{business}}: your client portal");
    expect(TEMPLATE_DEFINITIONS.welcome.body).toBe(
      [
        "Hi {{name}},",
        "",
        "Welcome to {{business}}! Your account is ready. {{period}}",
        "",
        "Client portal: {{login_link}}",
        "Username: {{username}}",
        "{{password_step}}",
        "",
        "{{install}}",
        "",
        "What happens next: install the app, then sign in with the line details we send you (they're in your client portal too). Stuck? Message us and we'll help you finish.",
        "",
        "{{sign_off}}",
      ].join("\n"),
    );
  });

  it("keep today's words: the 7-day reminder and the password reset", () => {
    expect(TEMPLATE_DEFINITIONS["reminder-7d"].subject).toBe("{{business}}: your subscription ends on {{end_date}}");
    expect(TEMPLATE_DEFINITIONS["reminder-7d"].body).toContain(
      "Your {{package}} with {{business}} ends on {{end_date}} (in {{days}} days).",
    );
    expect(TEMPLATE_DEFINITIONS["reminder-7d"].body).toContain("Renew before then to keep watching without a break: {{renew_link}}");
    expect(TEMPLATE_DEFINITIONS["password-reset"].body).toContain("Choose a new password here: {{reset_link}}");
    expect(TEMPLATE_DEFINITIONS["password-reset"].body).toContain("The link works once and expires in 30 minutes.");
  });

  it("use only their own variables, keep the ones a secret needs, and never put a secret in a subject", () => {
    for (const kind of TEMPLATE_KINDS) {
      const definition = TEMPLATE_DEFINITIONS[kind];
      expect(templateFieldErrors(kind, definition), kind).toEqual({});
      expect(templateProblems(definition.body, definition.variables), kind).toEqual([]);
      for (const secret of SECRET_VARIABLES) expect(subjectVariables(kind)).not.toContain(secret);
    }
  });
});

describe("each kind's own subject (issue 25 item 6)", () => {
  it("no two kinds share a default subject, and each names the business", () => {
    const subjects = TEMPLATE_KINDS.map((kind) => TEMPLATE_DEFINITIONS[kind].subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    for (const subject of subjects) expect(subject).toContain("{{business}}");
  });

  it.each([
    ["reminder-7d", "{{business}}: your subscription ends on {{end_date}}"],
    ["reminder-3d", "{{business}}: a few days left, your subscription ends on {{end_date}}"],
    ["reminder-1d", "{{business}}: your subscription ends soon"],
    ["reminder-expired", "{{business}}: your subscription ended on {{end_date}}"],
    ["trial-ending", "{{business}}: your free trial ends {{ends}}"],
    ["trial-ended", "{{business}}: your free trial has ended"],
    ["refund-issued", "{{business}}: refund of {{amount}} (credit note {{credit_note}})"],
  ] as const)("%s: %s", (kind, subject) => {
    expect(TEMPLATE_DEFINITIONS[kind].subject).toBe(subject);
  });

  it.each([
    ["refund-issued", "{{business}}: {{reason_code}}", "{{reason_code}}"],
    ["reminder-expired", "Ended {{ended_on}}", "{{ended_on}}"],
    ["trial-ended", "{{password}} inside", "{{password}}"],
  ] as const)("a %s subject with an unknown variable is refused on the subject, naming it", (kind, subject, named) => {
    const errors = templateFieldErrors(kind, { subject, body: TEMPLATE_DEFINITIONS[kind].body });
    expect(Object.keys(errors)).toEqual(["subject"]);
    expect(errors.subject).toContain(named);
  });
});

describe("renderTemplate", () => {
  it("fills each variable once, never reading a value as a template", () => {
    expect(renderTemplate("Hi {{name}}, {{ business }} here", { name: "{{business}}", business: "StreamDesk" })).toBe(
      "Hi {{business}}, StreamDesk here",
    );
  });

  it("leaves out a line whose variables are all empty, trims trailing spaces and never repeats a blank line", () => {
    const text = "Hi {{name}},\n\nReady, {{name}}. {{period}}\nActive until: {{end_date}}\n\n{{guide}}\n\nBye";
    expect(renderTemplate(text, { name: "Thabo", period: "", end_date: "", guide: "" })).toBe("Hi Thabo,\n\nReady, Thabo.\n\nBye");
    expect(renderTemplate(text, { name: "Thabo", period: "Trial.", end_date: "1 Dec 2026", guide: "1. Open\n2. Sign in" })).toBe(
      "Hi Thabo,\n\nReady, Thabo. Trial.\nActive until: 1 Dec 2026\n\n1. Open\n2. Sign in\n\nBye",
    );
  });

  it("leaves a variable it has no value for as written", () => {
    expect(renderTemplate("Hi {{nickname}}", {})).toBe("Hi {{nickname}}");
  });
});

describe("templateProblems and the editor's schema", () => {
  it("finds unknown variables, each once", () => {
    expect(templateVariables("{{a}} {{ b }} {{a}}")).toEqual(["a", "b"]);
    expect(templateProblems("Hi {{name}} {{nickname}} {{nickname}} {{ shoe_size }}", ["name"])).toEqual(["nickname", "shoe_size"]);
  });

  it("names the field with the unknown variable", () => {
    expect(templateFieldErrors("welcome", { subject: "Hi {{nickname}}", body: "{{password_step}}" }).subject).toMatch(
      /Unknown variable \{\{nickname\}\} in the subject/,
    );
    expect(templateFieldErrors("welcome", { subject: "Hi", body: "{{password_step}} {{shoe}}" }).body).toMatch(
      /Unknown variable \{\{shoe\}\}/,
    );
  });

  it("refuses a secret in the subject and a body without the secret's variable", () => {
    expect(templateFieldErrors("password-reset", { subject: "{{reset_link}}", body: "{{reset_link}}" }).subject).toMatch(/cannot hold/);
    expect(templateFieldErrors("password-reset", { subject: "Reset", body: "Hi {{name}}" }).body).toMatch(
      /must include \{\{reset_link\}\}/,
    );
    expect(templateFieldErrors("receipt", { subject: "Paid", body: "Thanks {{name}}" })).toEqual({});
  });

  it("the kind's schema reports an empty body and unknown variables by field", () => {
    const empty = messageTemplateSchemaFor("receipt").safeParse({ subject: "Paid", body: "  " });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["body", "Please enter the message"]]);
    const unknown = messageTemplateSchemaFor("receipt").safeParse({ subject: "Paid {{nope}}", body: "Thanks" });
    expect(unknown.error?.issues.map((i) => i.path.join("."))).toEqual(["subject"]);
  });

  // Every kind is also sent on WhatsApp (one text for both channels), so the owner's text may not say "e-mail".
  it.each([
    ["Keep this e-mail as your receipt.", true],
    ["We've emailed you the details.", true],
    ["Check your E-Mail inbox", true],
    ["Your e mail address", true],
    ["Questions? Write to help@email.co.za or see https://email.example.com/help", false],
    ["Keep this message as your receipt.", false],
    ["Your female presenter's remail", false],
  ])("a message saying %j is refused on WhatsApp: %s", (text, refused) => {
    expect(saysEmail(text)).toBe(refused);
    for (const kind of TEMPLATE_KINDS) {
      const result = messageTemplateSchemaFor(kind).safeParse({
        subject: "{{business}}: about your e-mail",
        body: `Hi {{name}}, ${text} ${TEMPLATE_DEFINITIONS[kind].required.map((v) => `{{${v}}}`).join(" ")}`,
      });
      // the subject may say it (WhatsApp sends the text alone); the body is the field refused
      expect(result.error?.issues.map((i) => [i.path.join("."), i.message]) ?? []).toEqual(
        refused ? [["body", WHATSAPP_EMAIL_WORD_MESSAGE]] : [],
      );
    }
  });

  it("a stored template that says e-mail still renders at send time (the rule is the editor's)", () => {
    expect(templateFieldErrors("receipt", { subject: "Paid", body: "Keep this e-mail, {{name}}" })).toEqual({});
  });
});
