// The client portal end to end: an admin creates a client through the API (waiting for their
// first payment), then the client signs in, sees that their first payment is awaited, pays
// through the sandbox card checkout and is active with their line, renews the same way (the term
// grows), finds the payment (paid) in their history, changes their password, signs out, and signs
// in with the new one.
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin } from "./e2e-env";
import { choosePassword, uniqueWhatsApp } from "./owner-queue";

function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test.beforeEach(async ({ context }) => {
  // The first-run notification prompt would float over the bottom of the pages.
  await context.addInitScript(() => window.localStorage.setItem("initialized", "true"));
});

/** A new client on 'Month to Month', waiting for their first payment (unique per run: specs share the server). */
async function createClient(request: APIRequestContext, origin: string) {
  const headers = { origin };
  const login = await request.post("/api/admin/login", { data: e2eAdmin, headers });
  expect(login.ok()).toBe(true);
  const { data: packages } = (await (await request.get("/api/packages")).json()) as { data: { id: string; name: string; price: number }[] };
  const pkg = packages.find((p) => p.name === "Month to Month") ?? packages[0];
  const username = `portal-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
  const whatsapp = uniqueWhatsApp();
  const created = await request.post("/api/admin/clients", {
    headers,
    data: {
      username,
      full_name: "Thandi Portal",
      email: `${username}@example.test`,
      whatsapp,
      communication_method: "whatsapp",
      package_id: pkg.id,
      line_username: `line-${username}`,
      line_password: "line-secret-123",
      line_portal_url: "http://line.example.test:8080",
    },
  });
  expect(created.status()).toBe(201);
  const password = await choosePassword(request, whatsapp);
  await request.post("/api/admin/logout", { headers });
  return { username, password, pkg };
}

async function signIn(page: Page, username: string, password: string) {
  await page.locator("#client-username").fill(username);
  await page.locator("#client-password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

const daysLeft = async (page: Page) => Number((await page.getByTestId("days-left").textContent())?.match(/\d+/)?.[0] ?? Number.NaN);

/** Pays for the package chosen in the portal's pay/renew panel on the sandbox checkout; the payment's reference. */
async function payByCard(page: Page, pkgId: string): Promise<string> {
  const renew = page.locator("#renew");
  await expect(renew.getByRole("combobox", { name: "Package" })).toHaveValue(pkgId);
  await renew.getByRole("button", { name: /^Pay R[\d,]+ by card$/ }).click();
  await expect(page.getByRole("button", { name: "Pay", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page).toHaveURL(/\/payment\/success\?ref=/);
  const reference = new URL(page.url()).searchParams.get("ref") ?? "";
  expect(reference).not.toBe("");
  return reference;
}

test("a client signs in, pays, renews by card, sees the payment, changes the password and signs out", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  const { username, password, pkg } = await createClient(page.request, baseURL ?? "");

  // A guarded page sends a signed-out visitor to sign in, and back after. (Sign-ins are limited
  // per address and minute, shared by every spec: this test signs in twice, and the refusal
  // messages are covered by the component tests.)
  await page.goto("/client?renew=1");
  await expect(page).toHaveURL(/\/client\/login$/);
  await expect(page.getByRole("link", { name: "Forgot password?" })).toBeVisible();
  await signIn(page, username, password);
  await expect(page.getByText("Welcome to your client portal")).toBeVisible();
  await expect(page).toHaveURL(/\/client\?renew=1$/);

  // Nothing paid yet: waiting for the first payment, with paying as the main action.
  await expect(page.getByTestId("subscription-status")).toHaveText("Awaiting payment");
  await expect(page.getByRole("heading", { name: "Waiting for your first payment" })).toBeVisible();
  await expect(page.getByTestId("days-left")).toHaveText("Not started yet");
  await payByCard(page, pkg.id);

  // Paid: active for the package's month, with their streaming line.
  await page.goto("/client");
  await expect(page.getByTestId("subscription-status")).toHaveText("Active");
  await expect(page.getByTestId("days-left")).toHaveText(/^\d+ days left$/);
  const before = await daysLeft(page);
  expect(before).toBeGreaterThanOrEqual(28);
  // Their line: the one typed in for them by hand stays theirs (provisioning never replaces it).
  await expect(page.getByText(`line-${username}`, { exact: true })).toBeVisible();

  // Renew with their own package by card: the sandbox checkout, then Pay.
  const reference = await payByCard(page, pkg.id);

  // The term grew by the package's period.
  await page.goto("/client");
  await expect(page.getByTestId("days-left")).toHaveText(/^\d+ days left$/);
  expect(await daysLeft(page)).toBeGreaterThanOrEqual(before + 28);

  // The payment, paid, in their history, with a receipt.
  await page.goto("/payment-history");
  await expect(page.getByRole("heading", { level: 1, name: "Payment history" })).toBeVisible();
  const row = page.locator(`[data-payment="${reference}"]`).filter({ visible: true });
  await expect(row).toContainText("Paid");
  await expect(row).toContainText(`R${pkg.price.toLocaleString("en-US")}`);
  await row.getByRole("link", { name: `Receipt for ${reference}` }).click();
  await expect(page.getByRole("article", { name: "Receipt" })).toContainText(reference);
  await expect(page.getByRole("button", { name: "Print receipt" })).toBeVisible();

  // A new password.
  const newPassword = `New-portal-${Date.now()}`;
  await page.goto("/account-management");
  await page.locator("#current-password").fill(password);
  await page.locator("#new-password").fill(newPassword);
  await page.locator("#confirm-password").fill(newPassword);
  await page.getByRole("button", { name: "Change password", exact: true }).click();
  await expect(page.getByText("Password Changed")).toBeVisible();

  // Sign out, and back in with the new password. On a phone the toasts sit over the top of the
  // page (where Sign out is) for their 4 s, and hovering one holds it: wait for them as a person would.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/client\/login$/);
  await expect(page.getByText("You have been logged out successfully")).toBeVisible();
  await page.goto("/payment-history");
  await expect(page).toHaveURL(/\/client\/login$/);
  await signIn(page, username, newPassword);
  await expect(page).toHaveURL(/\/payment-history$/);
  await expect(page.getByRole("heading", { level: 1, name: "Payment history" })).toBeVisible();
  expect(errors).toEqual([]);
});
