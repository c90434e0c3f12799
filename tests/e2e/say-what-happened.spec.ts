// Issue 25, "say only what happened", as a customer and the owner meet it, on desktop and at
// 390 px, against the real server: no WhatsApp Cloud API (WhatsApp waits for the owner) and
// e-mail delivered to the suite's SMTP sink (tests/e2e/mailbox.ts).
// - A card payment by a WhatsApp-only customer: the result page says their login, receipt and
//   line details wait to be sent on WhatsApp by the business, never that they went; the owner
//   finds them as one chat in the dashboard's queue (each under its own subject), opens it and
//   marks it sent; the result page, still open, then says they were sent.
// - A refund: a customer who gave an e-mail address pays (the result page says the receipt was
//   sent to their e-mail, and it is in their mailbox with the invoice), the owner refunds it from
//   the payments page, and the refund message with the credit note's PDF reaches their mailbox,
//   saying what happens to their line.
import { expect, type Page, test } from "@playwright/test";
import { ownerPage } from "./a11y-helpers";
import { mailTo } from "./mailbox";
import { uniqueWhatsApp } from "./owner-queue";

// Two browsers, a payment, the sandbox panel, the outbox worker and SMTP per journey, on 2 shared cores.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ context }) => {
  // No first-run notification prompt or special popup over the journey.
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
});

/** 0xx xxx xxxx, as a customer types their number. */
const local = (digits: string) => `0${digits.slice(2, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}`;
/** +27 xx xxx xxxx, as the dashboard shows a number. */
const display = (digits: string) => `+27 ${digits.slice(2, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}`;

/** From a package card's Pay Now through the review step to a paid sandbox checkout; the result page. */
async function payByCard(page: Page, plan: string, payer: { name: string; whatsapp: string; email?: string }): Promise<Page> {
  await page.goto("/");
  const card = page.locator(`#pricing-packages article[data-plan="${plan}"]`);
  await card.scrollIntoViewIfNeeded();
  await card.getByRole("button", { name: "Pay Now" }).click();
  const review = page.getByRole("dialog", { name: "Review your order" });
  await review.getByLabel("Full Name").fill(payer.name);
  await review.getByLabel("WhatsApp Number").fill(local(payer.whatsapp));
  if (payer.email) await review.getByLabel("E-mail Address").fill(payer.email);
  await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
  const [checkout] = await Promise.all([
    page.context().waitForEvent("page"),
    review.getByRole("button", { name: "Continue to payment" }).click(),
  ]);
  await checkout.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await checkout.getByRole("button", { name: "Pay", exact: true }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=/);
  await expect(checkout.getByRole("heading", { level: 1, name: "Your account is ready" })).toBeVisible();
  return checkout;
}

test("no Cloud API: the result page says the login waits for the owner, and says 'sent' once the owner marks the chat sent", async ({
  page,
  browser,
}, testInfo) => {
  const errors: string[] = [];
  const number = uniqueWhatsApp();
  const result = await payByCard(page, "3 Months", { name: "Thandi Mokoena", whatsapp: number });
  result.on("pageerror", (error) => errors.push(error.message));
  const steps = result.locator("main");

  // Nothing claims a send: each message waits for the business to send it on WhatsApp (the line's
  // details join once the sandbox panel has made the line).
  for (const line of [
    /^Your receipt is waiting to be sent on WhatsApp by .+\.$/,
    /^Your client portal login is waiting to be sent on WhatsApp by .+\.$/,
    /^Your streaming login details are waiting to be sent on WhatsApp by .+\.$/,
  ]) {
    await expect(steps.getByText(line)).toBeVisible({ timeout: 30_000 });
  }
  await expect(steps.getByText(/We've sent|was sent|were sent/)).toHaveCount(0);
  await result.screenshot({ path: testInfo.outputPath("result-waiting-for-owner.png") });

  // The owner's queue: one chat for this person, oldest first, each message under its own subject.
  const owner = await ownerPage(browser, testInfo);
  await owner.goto(`/admin/outbox?status=owner&q=${number}`);
  const chat = owner.getByTestId("owner-chat");
  await expect(chat).toContainText("3 messages, sent as one chat");
  // (the receipt and the welcome were queued in one transaction, so either may list first)
  await expect(chat.locator("li")).toHaveCount(3);
  const subjects = await chat.locator("li").allTextContents();
  expect(subjects.slice(0, 2).filter((s) => /: payment received for 3 Months$/.test(s))).toHaveLength(1);
  expect(subjects.slice(0, 2).filter((s) => /^Welcome to .+: your client portal$/.test(s))).toHaveLength(1);
  expect(subjects[2]).toMatch(/: your line is ready$/);
  // Two hold a secret (the set-password link, the line's password): asked for first, then the chat opens.
  await owner
    .getByRole("button", { name: `Prepare chat with ${display(number)} on WhatsApp (3 messages, one holds a private link)` })
    .click();
  const open = owner.getByRole("link", { name: `Open chat with ${display(number)} on WhatsApp (new tab), 3 messages in one` });
  await expect(open).toBeVisible();
  const text = decodeURIComponent(((await open.getAttribute("href")) ?? "").split("?text=")[1] ?? "");
  expect(text.startsWith("Hi Thandi,\n")).toBe(true);
  expect(text).not.toMatch(/e-?mail/i);
  const [whatsapp] = await Promise.all([owner.context().waitForEvent("page"), open.click()]);
  await whatsapp.close();
  await owner.getByRole("button", { name: `Mark all sent for the 3 messages to ${display(number)}` }).click();
  await expect(owner.getByText("Marked as sent")).toBeVisible();

  // The result page, left open, asks again and says what happened now.
  await expect(steps.getByText(/^Your client portal login was sent to your WhatsApp .*\.$/)).toBeVisible({ timeout: 20_000 });
  await expect(steps.getByText(/^Your receipt was sent to your WhatsApp .*\.$/)).toBeVisible();
  await expect(steps.getByText(/^Your streaming login details were sent to your WhatsApp .*\.$/)).toBeVisible();
  await expect(steps.getByText(/waiting to be sent/)).toHaveCount(0);
  await result.screenshot({ path: testInfo.outputPath("result-sent.png") });
  expect(errors).toEqual([]);
  await owner.context().close();
  await result.close();
});

test("a refund reaches the customer's mailbox with the credit note, saying what happens to their line", async ({
  page,
  browser,
}, testInfo) => {
  const errors: string[] = [];
  const number = uniqueWhatsApp();
  const email = `naledi.${testInfo.project.name}.${Date.now().toString(36)}@example.co.za`;
  const result = await payByCard(page, "Month to Month", { name: "Naledi Sithole", whatsapp: number, email });
  result.on("pageerror", (error) => errors.push(error.message));
  const reference = new URL(result.url()).searchParams.get("ref") ?? "";

  // With a mailbox to deliver to, the receipt is really sent, and the page says so.
  await expect(result.locator("main").getByText(/^Your receipt was sent to your e-mail .+\.$/)).toBeVisible({ timeout: 30_000 });
  const receipt = await mailTo(email, (m) => /: payment received for Month to Month$/.test(m.subject));
  expect(receipt.text.startsWith("Hi Naledi,\n")).toBe(true);
  expect(receipt.text).toContain(`Reference: ${reference}`);
  const invoice = /Invoice: (INV-\d{6})/.exec(receipt.text)?.[1];
  expect(invoice, receipt.text).toBeTruthy();
  expect(receipt.attachments).toEqual([`${invoice}.pdf`]);
  await result.close();

  // The owner refunds the whole payment from the payments page.
  const owner = await ownerPage(browser, testInfo);
  await owner.goto(`/admin/payments?q=${encodeURIComponent(reference)}`);
  await owner.getByRole("button", { name: "Refund" }).first().click();
  const dialog = owner.getByRole("dialog", { name: "Refund" });
  await dialog.getByLabel(/^Reason/).fill("Ordered the wrong package");
  await dialog.getByRole("button", { name: "Refund and issue credit note" }).click();
  const issued = owner.getByText(/^Credit note CN-\d{6} issued$/);
  await expect(issued).toBeVisible();
  const creditNote = /CN-\d{6}/.exec((await issued.textContent()) ?? "")?.[0] as string;

  // It reaches their mailbox: the amount, the credit note attached, and where their line stands.
  const refund = await mailTo(email, (m) => m.subject.includes(`(credit note ${creditNote})`));
  expect(refund.subject).toMatch(/: refund of R\d[\d,]* \(credit note CN-\d{6}\)$/);
  expect(refund.attachments).toEqual([`${creditNote}.pdf`]);
  expect(refund.text.startsWith("Hi Naledi,\n")).toBe(true);
  expect(refund.text).toContain(`of your payment ${reference}`);
  expect(refund.text).toContain(`(invoice ${invoice})`);
  expect(refund.text).toContain("Reason: Ordered the wrong package");
  expect(refund.text).toMatch(/Your line: .+/);
  expect(errors).toEqual([]);
  await owner.context().close();
});
