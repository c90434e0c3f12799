// Ozow's hashes (SHA-512 of the values in Ozow's documented order, the private key appended,
// lower-cased) and its notification's statuses, read by the adapter.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createOzowProvider, ozowHash, ozowStatus } from "./adapter";

describe("Ozow hashes", () => {
  it("SHA-512 of the values in order with the private key appended, all lower-cased", () => {
    const values = ["SITE-1", "ZA", "ZAR", "1450.00", "STRMDSK_1_AbC"];
    const expected = createHash("sha512").update("site-1zazar1450.00strmdsk_1_abcmy-private-key").digest("hex");
    expect(ozowHash(values, "My-Private-KEY")).toBe(expected);
  });

  it("reads a notification hashed in Ozow's documented order, and maps its statuses", () => {
    const ozow = createOzowProvider({
      payUrl: "https://pay.ozow.com",
      apiUrl: "https://api.ozow.com",
      siteCode: "SITE-1",
      privateKey: "key",
      apiKey: "api",
    });
    const fields: Record<string, string> = {
      SiteCode: "SITE-1",
      TransactionId: "9c2f0e5a-1111-2222-3333-444455556666",
      TransactionReference: "STRMDSK_1_abc",
      Amount: "1450.00",
      Status: "Complete",
      CurrencyCode: "ZAR",
      IsTest: "false",
      StatusMessage: "Paid",
    };
    // Ozow's documented order ("Notification response", response variables 1-13), held here, not
    // taken from the adapter: a list the adapter got wrong would otherwise agree with itself.
    const documentedOrder = [
      "SiteCode",
      "TransactionId",
      "TransactionReference",
      "Amount",
      "Status",
      "Optional1",
      "Optional2",
      "Optional3",
      "Optional4",
      "Optional5",
      "CurrencyCode",
      "IsTest",
      "StatusMessage",
    ];
    const values = documentedOrder.map((k) => fields[k] ?? "");
    const body = new URLSearchParams({ ...fields, Hash: ozowHash(values, "key").toUpperCase() }).toString();
    expect(ozow.readNotification({ rawBody: body, headers: {} })).toMatchObject({
      reference: "STRMDSK_1_abc",
      providerPaymentId: fields.TransactionId,
      status: "paid",
      amountCents: 145000,
    });
    expect(["Complete", "Cancelled", "Error", "Abandoned", "PendingInvestigation"].map(ozowStatus)).toEqual([
      "paid",
      "cancelled",
      "failed",
      "cancelled",
      "pending",
    ]);
  });
});
