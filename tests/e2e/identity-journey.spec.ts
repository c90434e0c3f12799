// Who is paying is proven, never guessed (issue 24), on desktop and at 390 px, against the real
// server (no WhatsApp Cloud API: WhatsApp cannot carry a code, so it goes to the account's e-mail).
// - A returning customer types their number in the review step and asks for a code ("Already a
//   customer?"); the page answers as it would for anyone (issue 46: who is a customer is not
//   public): no code can go to a number here, so it asks for the account's e-mail address. With
//   it typed, the page names that address (issue 41), the code goes there (read from the
//   mailbox), the customer types it and the payment renews their account.
// - A stranger who types an e-mail address an existing client uses (a household address) is never
//   asked who they are: they pay as a new customer and get their own account, flagged for the
//   owner as a possible duplicate; the other client is untouched, and no code went anywhere.
import { type APIRequestContext, expect, type request, test } from "@playwright/test";
import { e2eAdmin, ownOrigin } from "./e2e-env";
import { codeMailedTo } from "./mailbox";
import { openReview } from "./storefront";

test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
});

/** A number of 27 + 9 digits no other spec or run uses. */
function uniqueNumber(prefix: string, project: string): string {
  return `27${prefix}${project === "phone" ? "1" : "2"}${String(Date.now()).slice(-6)}`;
}
const local = (digits: string) => `0${digits.slice(2, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}`;

/** The admin's API, signed in (its own request context: the visitor's page stays signed out). */
async function adminApi(playwright: { request: { newContext: typeof request.newContext } }, baseURL: string): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: ownOrigin() });
  const login = await api.post("/api/admin/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } });
  expect(login.ok(), await login.text()).toBe(true);
  return api;
}

async function newClient(api: APIRequestContext, values: Record<string, unknown>): Promise<string> {
  const created = await api.post("/api/admin/clients", { data: { communication_method: "whatsapp", start: "pending", ...values } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { client: { id: string } }).client.id;
}

test("a returning customer is asked for their e-mail address, is told the code went there, and renews with it", async ({
  page,
  context,
  playwright,
  baseURL,
}, testInfo) => {
  const api = await adminApi(playwright, baseURL ?? "");
  const number = uniqueNumber("83", testInfo.project.name);
  const address = `lerato-${testInfo.project.name}-${Date.now()}@example.co.za`;
  const clientId = await newClient(api, { full_name: "Lerato Returning", whatsapp: number, email: address });

  const review = await openReview(page);
  await review.getByLabel("Full Name").fill("Lerato");
  await review.getByLabel("WhatsApp Number").fill(local(number));
  await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
  await review.getByRole("button", { name: "Already a customer? Get a code to pay on your account" }).click();

  await expect(review.getByRole("heading", { name: "Pay on your account" })).toBeVisible();
  await expect(
    review.getByText(/We can't send a code to what you typed right now\. Add the e-mail address on your account above/),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("identity-asks-email.png") });
  await review.getByLabel("E-mail Address").fill(address);
  await review.getByRole("button", { name: "Already a customer? Get a code to pay on your account" }).click();
  const masked = `${address.slice(0, 1)}***@example.co.za`;
  await expect(
    review.getByText(`If ${masked} is on an account with us, we've sent a code there: enter it below.`, { exact: false }),
  ).toBeVisible();
  // asking opened no tab
  expect(context.pages()).toHaveLength(1);
  await page.screenshot({ path: testInfo.outputPath("identity-code-step.png") });

  // A wrong code is refused on its field, and nothing is paid.
  await review.getByLabel("Code", { exact: true }).fill("000000");
  await review.getByRole("button", { name: "Sign in and pay" }).click();
  await expect(review.getByText(/That code did not work/)).toBeVisible();

  await review.getByLabel("Code", { exact: true }).fill(await codeMailedTo(address));
  const [checkout] = await Promise.all([context.waitForEvent("page"), review.getByRole("button", { name: "Sign in and pay" }).click()]);
  await checkout.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await checkout.getByRole("button", { name: "Pay", exact: true }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=/);
  await expect(checkout.getByRole("heading", { level: 1, name: "Subscription renewed" })).toBeVisible();

  const detail = (await (await api.get(`/api/admin/clients/${clientId}`)).json()) as { data: { status: string; payments: unknown[] } };
  expect(detail.data.status).toBe("active");
  expect(detail.data.payments).toHaveLength(1);
  await checkout.close();
  await api.dispose();
});

test("a stranger with a shared e-mail address pays as a new customer, is never told whose it is, and gets their own account", async ({
  page,
  context,
  playwright,
  baseURL,
}, testInfo) => {
  const api = await adminApi(playwright, baseURL ?? "");
  const householder = uniqueNumber("84", testInfo.project.name);
  const stranger = uniqueNumber("72", testInfo.project.name);
  const email = `home-${testInfo.project.name}-${Date.now()}@example.co.za`;
  const existingId = await newClient(api, { full_name: "House Holder", whatsapp: householder, email });

  const review = await openReview(page);
  await review.getByLabel("Full Name").fill("Naledi Stranger");
  await review.getByLabel("WhatsApp Number").fill(local(stranger));
  await review.getByLabel("E-mail Address").fill(email);
  await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
  // Pay goes straight to the payment: nothing on the page says the address is someone's.
  const [checkout] = await Promise.all([context.waitForEvent("page"), review.getByRole("button", { name: "Continue to payment" }).click()]);
  await expect(review.getByText(/found an account/i)).toHaveCount(0);
  await checkout.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await checkout.getByRole("button", { name: "Pay", exact: true }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=/);
  await expect(checkout.getByRole("heading", { level: 1, name: "Your account is ready" })).toBeVisible();

  const found = (await (await api.get(`/api/admin/clients?q=${stranger}`)).json()) as {
    data: { id: string; full_name: string; possible_duplicate_of: string | null }[];
  };
  expect(found.data).toHaveLength(1);
  expect(found.data[0]).toMatchObject({ full_name: "Naledi Stranger", possible_duplicate_of: existingId });
  const existing = (await (await api.get(`/api/admin/clients/${existingId}`)).json()) as { data: { status: string; payments: unknown[] } };
  expect(existing.data).toMatchObject({ status: "pending", payments: [] });
  await checkout.close();
  await api.dispose();
});
