// A suspension end to end: an admin suspends a client from the client's page (the dialog says
// what it does), then the client signs in and sees only the page saying their account is
// suspended, with the business's WhatsApp number and support e-mail and Sign out: no
// subscription, line, payments, requests or renewing, on any portal address.
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { SUSPENDED_MESSAGE } from "../../src/shared/client-schemas";
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

/** A new client with a streaming line, created through the admin API (unique per run: specs share the server). */
async function createClient(request: APIRequestContext, origin: string) {
  const headers = { origin };
  const username = `susp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
  const whatsapp = uniqueWhatsApp();
  const created = await request.post("/api/admin/clients", {
    headers,
    data: {
      username,
      full_name: "Sipho Suspended",
      email: `${username}@example.test`,
      whatsapp,
      communication_method: "whatsapp",
      line_username: `line-${username}`,
      line_password: "line-secret-123",
      line_portal_url: "http://line.example.test:8080",
    },
  });
  expect(created.status()).toBe(201);
  const { client } = (await created.json()) as { client: { id: string } };
  return { id: client.id, username, password: await choosePassword(request, whatsapp) };
}

test("an admin suspends a client; signing in, the client sees only the suspended page with how to reach the business", async ({
  browser,
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(60_000);
  const origin = baseURL ?? "";
  const login = await page.request.post("/api/admin/login", { data: e2eAdmin, headers: { origin } });
  expect(login.ok()).toBe(true);
  const { id, username, password } = await createClient(page.request, origin);
  const branding = ((await (await page.request.get("/api/branding")).json()) as { data: Record<string, string> }).data;

  // The admin suspends them from their page.
  const adminErrors = collectPageErrors(page);
  await page.goto(`/admin/client/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Sipho Suspended" })).toBeVisible();
  await page.getByRole("button", { name: "Suspend", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Suspend Sipho Suspended?" });
  await expect(confirm).toContainText("They're signed out of the client portal at once");
  await expect(confirm).toContainText("see only a page saying their account is suspended and how to reach you");
  await expect(confirm).toContainText("A payment adds time but doesn't lift the suspension");
  await confirm.getByRole("button", { name: "Suspend" }).click();
  await expect(page.getByText("Client suspended")).toBeVisible();
  await expect(page.locator("[data-status]").first()).toHaveText("Suspended");
  await expect(page.getByRole("button", { name: "Reactivate" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Sipho Suspended's status and term history" })).toContainText("Suspended by an admin");
  expect(adminErrors).toEqual([]);

  // The client, in a browser of their own, signs in.
  const client = await browser.newContext(testInfo.project.use);
  await client.addInitScript(() => window.localStorage.setItem("initialized", "true"));
  const portal = await client.newPage();
  const errors = collectPageErrors(portal);
  try {
    await portal.goto("/client/login");
    await portal.locator("#client-username").fill(username);
    await portal.locator("#client-password").fill(password);
    await portal.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(portal).toHaveURL(/\/client$/);

    await expect(portal.getByRole("heading", { level: 1, name: "Your account is suspended" })).toBeVisible();
    await expect(portal.getByText(SUSPENDED_MESSAGE)).toBeVisible();
    const whatsapp = portal.getByRole("link", { name: /^WhatsApp / });
    await expect(whatsapp).toHaveAttribute("href", new RegExp(`^https://wa\\.me/${branding.whatsapp_number}\\?text=`));
    await expect(portal.getByRole("link", { name: branding.support_email })).toHaveAttribute("href", `mailto:${branding.support_email}`);
    await expect(portal.getByRole("button", { name: "Sign out" })).toBeVisible();
    // nothing else of the portal
    await expect(portal.getByRole("navigation", { name: "Client portal" })).toHaveCount(0);
    await expect(portal.locator("#renew")).toHaveCount(0);
    await expect(portal.getByTestId("subscription-status")).toHaveCount(0);
    await expect(portal.getByText(`line-${username}`)).toHaveCount(0);

    // the same page at every portal address
    for (const path of ["/payment-history", "/account-management", "/client/specials"]) {
      await portal.goto(path);
      await expect(portal.getByRole("heading", { level: 1, name: "Your account is suspended" })).toBeVisible();
    }

    await portal.getByRole("button", { name: "Sign out" }).click();
    await expect(portal).toHaveURL(/\/client\/login$/);
    expect(errors).toEqual([]);
  } finally {
    await client.close();
  }
});
