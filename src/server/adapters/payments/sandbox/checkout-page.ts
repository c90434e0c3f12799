// The sandbox provider's "hosted checkout": a server-rendered page of ours that looks like a
// card provider's payment page. It runs under the app's CSP: no script at all (inline style is
// allowed), and its three buttons are plain forms posting to our own origin (form-action 'self').
import { escapeHtml, unlistedPageHead } from "@/shared/html";
import { formatRand } from "@/shared/money";

export interface CheckoutPageFacts {
  companyName: string;
  description: string;
  amountCents: number;
  reference: string;
}

/** Where the test checkout's page is served (GET …/:ref) and its buttons post (POST …/:ref/:action). */
export const TEST_CHECKOUT_PATH = "/api/payments/sandbox/checkout";

export function renderSandboxCheckout(facts: CheckoutPageFacts): string {
  const company = escapeHtml(facts.companyName);
  const description = escapeHtml(facts.description);
  const amount = escapeHtml(formatRand(facts.amountCents / 100));
  const reference = escapeHtml(facts.reference);
  const action = (verb: string) => `${TEST_CHECKOUT_PATH}/${encodeURIComponent(facts.reference)}/${verb}`;
  const field = (id: string, label: string, value: string, extra = "") =>
    `<div class="field"${extra}><label for="${id}">${label}</label><input id="${id}" value="${value}" readonly aria-readonly="true"></div>`;

  return `${unlistedPageHead(`Pay ${amount} to ${company} — test checkout`)}
<style>
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; background: #eef1f5; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #14181f; display: flex; align-items: flex-start; justify-content: center; padding: 24px 12px; }
  main { width: 100%; max-width: 420px; background: #fff; border-radius: 16px; box-shadow: 0 8px 30px rgba(20, 24, 31, .12); overflow: hidden; }
  .banner { margin: 0; background: #fff4d6; color: #6b4a00; border-bottom: 1px solid #f1d58a; padding: 10px 16px; font-weight: 600; text-align: center; }
  header { padding: 20px 20px 8px; }
  .merchant { font-size: 14px; color: #4a5565; margin: 0; }
  h1 { font-size: 30px; margin: 4px 0 2px; font-variant-numeric: tabular-nums; }
  .description { margin: 0; color: #303846; }
  .ref { margin: 6px 0 0; font-size: 13px; color: #5b6574; word-break: break-all; }
  .card { margin: 16px 20px; padding: 16px; border: 1px solid #d6dbe3; border-radius: 12px; background: #f8fafc; }
  .card-title { margin: 0 0 10px; font-size: 14px; font-weight: 600; color: #303846; }
  .field { margin-bottom: 10px; }
  .row { display: flex; gap: 10px; }
  .row .field { flex: 1; }
  label { display: block; font-size: 13px; color: #4a5565; margin-bottom: 2px; }
  input { width: 100%; font: inherit; font-variant-numeric: tabular-nums; padding: 10px 12px; border: 1px solid #c3cad5; border-radius: 8px; background: #fff; color: #5b6574; }
  .note { margin: 0; font-size: 13px; color: #6b4a00; }
  .actions { padding: 4px 20px 20px; display: grid; gap: 10px; }
  form { margin: 0; }
  button { width: 100%; min-height: 48px; font: inherit; font-weight: 600; border-radius: 10px; border: 1px solid transparent; cursor: pointer; }
  button:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  .pay { background: #0f7b3f; color: #fff; }
  .decline { background: #fff; color: #a11b1b; border-color: #e3b4b4; }
  .cancel { background: #fff; color: #303846; border-color: #c3cad5; }
  footer { padding: 0 20px 20px; font-size: 12px; color: #5b6574; text-align: center; }
</style>
</head>
<body>
<main>
  <p class="banner" role="note">Test payment — no card is charged</p>
  <header>
    <p class="merchant">Pay ${company}</p>
    <h1>${amount}</h1>
    <p class="description">${description}</p>
    <p class="ref">Reference: ${reference}</p>
  </header>
  <section class="card" aria-labelledby="card-title">
    <p class="card-title" id="card-title">Card details (test)</p>
    ${field("card-number", "Card number", "4242 4242 4242 4242")}
    <div class="row">
      ${field("card-expiry", "Expiry", "12 / 34")}
      ${field("card-cvc", "CVC", "123")}
    </div>
    ${field("card-name", "Name on card", "Test Customer")}
    <p class="note">This is the built-in test checkout. No card is charged and no money moves: choose what the payment provider should report.</p>
  </section>
  <div class="actions">
    <form method="post" action="${action("pay")}"><button type="submit" class="pay">Pay</button></form>
    <form method="post" action="${action("decline")}"><button type="submit" class="decline">Decline</button></form>
    <form method="post" action="${action("cancel")}"><button type="submit" class="cancel">Cancel</button></form>
  </div>
  <footer>Test checkout of ${company}. Real payments use the card provider configured by the business.</footer>
</main>
</body>
</html>
`;
}
