// The hand-off to a provider that takes a signed form post (capabilities.checkout "form"): a page of ours whose
// form carries the fields to the provider's page, submitted at once by one small script (allowed
// by its hash in this page's own CSP) or by the button when scripts are off. The CSP lets the form
// post only to the provider's origin.
import { createHash } from "node:crypto";
import { escapeHtml, unlistedPageHead } from "@/shared/html";
import { formatRand } from "@/shared/money";

const SCRIPT = 'document.getElementById("handoff").submit();';
const SCRIPT_HASH = `'sha256-${createHash("sha256").update(SCRIPT, "utf8").digest("base64")}'`;

export interface HandoffFacts {
  /** the provider's name, as customers know it */
  label: string;
  action: string;
  fields: readonly (readonly [string, string])[];
  amount: number;
}

/** The Content-Security-Policy for the hand-off page: nothing but its script, its style and a post to the provider. */
export function handoffPolicy(action: string): string {
  const origin = new URL(action).origin;
  return [
    "default-src 'none'",
    `script-src ${SCRIPT_HASH}`,
    "style-src 'unsafe-inline'",
    `form-action ${origin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

export function renderHandoff(facts: HandoffFacts): string {
  const label = escapeHtml(facts.label);
  const inputs = facts.fields
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  return `${unlistedPageHead(`Taking you to ${label}`)}
<style>
  body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; background: #0f1115; color: #f3f4f6; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; padding: 24px 12px; }
  main { max-width: 420px; text-align: center; }
  button { min-height: 44px; padding: 10px 20px; border-radius: 10px; border: 0; background: #3b82f6; color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
</style>
</head>
<body>
<main>
<h1>Paying ${escapeHtml(formatRand(facts.amount))} with ${label}</h1>
<p>Taking you to ${label}'s secure payment page…</p>
<form id="handoff" method="post" action="${escapeHtml(facts.action)}">
${inputs}
<button type="submit">Continue to ${label}</button>
</form>
</main>
<script>${SCRIPT}</script>
</body>
</html>`;
}
