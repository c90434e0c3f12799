// Each provider's signing, against the provider's own worked example where it publishes one: the
// documented input and the documented output are literals here, and both our adapter and our fake
// (which share no code) must compute that output. Where a provider publishes no worked example,
// the test says so in its name and its literal was computed once by hand in a shell, with the
// command written beside it; nothing in this file computes an expected value with our code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeIkhokhaSignature, startFakeIkhokha } from "./ikhokha/fake";
import { createOzowProvider, OZOW_REFUND_ORDER, OZOW_REQUEST_ORDER, ozowHash } from "./ozow/adapter";
import { fakeOzowHash, startFakeOzow } from "./ozow/fake";
import { createPayfastProvider, payfastApiSignature, payfastSignature } from "./payfast/adapter";
import { fakePayfastApiSignature, fakePayfastCheckoutSignature, fakePayfastItnSignature, startFakePayfast } from "./payfast/fake";
import { ikSignature } from "./signing";
import { yocoSignature } from "./yoco/adapter";
import { fakeStandardWebhookSignature } from "./yoco/fake";

describe("PayFast's published checkout signature example", () => {
  // PayFast's own SDK, github.com/Payfast/payfast-php-sdk, tests/unit/AuthTest.php
  // (testGenerateSignatureOrdering): these fields, passphrase 'payfastsandbox', in any order given,
  // sign as 3441682c5d8a65486f5b7cc8ce41d146, because the signature is over the non-blank fields
  // in the order PayFast's documentation lists them ("Step 1: Create your checkout form").
  // custom_str1/2 are the SDK's rtrim(base64_encode('Some Test String'), '=') and
  // rtrim(base64_encode('Another Test String'), '='), written out.
  const documentedOrder: [string, string][] = [
    ["merchant_id", "10028084"],
    ["merchant_key", "4hjoenwbwnuso"],
    ["return_url", "https://test.com/billing/success"],
    ["cancel_url", "https://test.com/billing/cancel"],
    ["notify_url", "https://test.com/payfast/webhook"],
    ["name_first", "Test"],
    ["name_last", "Test"],
    ["email_address", "test@test.com"],
    ["m_payment_id", "5"],
    ["amount", "5.00"],
    ["item_name", "Test"],
    ["custom_int1", "1"],
    ["custom_int2", "1"],
    ["custom_str1", "U29tZSBUZXN0IFN0cmluZw"],
    ["custom_str2", "QW5vdGhlciBUZXN0IFN0cmluZw"],
    ["email_confirmation", "1"],
    ["confirmation_address", "test@test.test"],
    ["subscription_type", "1"],
    ["billing_date", "2023-01-01"],
    ["recurring_amount", "5"],
    ["frequency", "3"],
    ["cycles", "0"],
  ];
  const published = "3441682c5d8a65486f5b7cc8ce41d146";

  it("our adapter signs the fields, posted in PayFast's documented order, as PayFast's example does", () => {
    expect(payfastSignature(documentedOrder, "payfastsandbox", { checkout: true })).toBe(published);
  });

  it("our fake computes PayFast's example whatever order the fields are posted in", () => {
    expect(fakePayfastCheckoutSignature(new Map([...documentedOrder].reverse()), "payfastsandbox")).toBe(published);
  });

  it("our fake's /eng/process takes the example, and refuses it with the signature changed or signed in another order", async () => {
    const fake = await startFakePayfast({ merchantId: "10028084", merchantKey: "4hjoenwbwnuso", passphrase: "payfastsandbox" });
    try {
      const post = (signature: string) =>
        fetch(`${fake.url}/eng/process`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams([...documentedOrder, ["signature", signature]]).toString(),
        });
      expect((await post(published)).status).toBe(200);
      const refused = await post("0441682c5d8a65486f5b7cc8ce41d146");
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Invalid: signature");
      // A plausible mistake: fields posted and signed sorted by name (as PayFast's API signs). The
      // old fake, signing whatever order it was posted in with the adapter's function, took it.
      const sorted = [...documentedOrder].sort(([a], [b]) => (a < b ? -1 : 1));
      const sortedSignature = payfastSignature(sorted, "payfastsandbox", { checkout: true });
      expect(sortedSignature).not.toBe(published);
      const sortedPost = await fetch(`${fake.url}/eng/process`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams([...sorted, ["signature", sortedSignature]]).toString(),
      });
      expect(sortedPost.status).toBe(400);
    } finally {
      await fake.close();
    }
  });
});

describe("PayFast ITN and API signatures (PayFast publishes no worked example: literals computed by hand)", () => {
  const itn: [string, string][] = [
    ["m_payment_id", "STRMDSK_1_abc"],
    ["pf_payment_id", "1089250"],
    ["payment_status", "COMPLETE"],
    ["item_name", "3 Months"],
    ["item_description", ""],
    ["amount_gross", "1450.00"],
    ["amount_fee", "-50.75"],
    ["amount_net", "1399.25"],
    ["name_first", "Test"],
    ["name_last", "Buyer & Co"],
    ["email_address", ""],
    ["merchant_id", "10000100"],
  ];
  // printf '%s' 'm_payment_id=STRMDSK_1_abc&pf_payment_id=1089250&payment_status=COMPLETE&item_name=3+Months&item_description=&amount_gross=1450.00&amount_fee=-50.75&amount_net=1399.25&name_first=Test&name_last=Buyer+%26+Co&email_address=&merchant_id=10000100&passphrase=jt7NOE43FZPn' | md5sum
  const itnByHand = "d6a3cb57f9942e6b3b8d49f3461aeab3";

  it("an ITN (in the order posted, blanks included, passphrase appended) signs as computed by hand, by the adapter and the fake", () => {
    expect(payfastSignature(itn, "jt7NOE43FZPn")).toBe(itnByHand);
    expect(fakePayfastItnSignature(itn, "jt7NOE43FZPn")).toBe(itnByHand);
  });

  it("the adapter believes an ITN carrying the hand-computed signature", () => {
    const provider = createPayfastProvider({
      url: "https://sandbox.payfast.co.za",
      merchantId: "10000100",
      merchantKey: "46f0cd694581a",
      passphrase: "jt7NOE43FZPn",
    });
    const rawBody =
      "m_payment_id=STRMDSK_1_abc&pf_payment_id=1089250&payment_status=COMPLETE&item_name=3+Months&item_description=" +
      "&amount_gross=1450.00&amount_fee=-50.75&amount_net=1399.25&name_first=Test&name_last=Buyer+%26+Co&email_address=" +
      `&merchant_id=10000100&signature=${itnByHand}`;
    expect(provider.readNotification({ rawBody, headers: {} })).toMatchObject({
      reference: "STRMDSK_1_abc",
      status: "paid",
      amountCents: 145000,
    });
  });

  it("an API call (headers and body sorted by name with the passphrase, an empty value kept as name=, as PayFast's PHP SDK does) signs as computed by hand", () => {
    const variables = {
      "merchant-id": "10000100",
      version: "v1",
      timestamp: "2026-06-13T10:00:00+02:00",
      amount: "5000",
      reason: "Paid twice & sorry",
      notify_buyer: "0",
      empty: "",
    };
    // printf '%s' 'amount=5000&empty=&merchant-id=10000100&notify_buyer=0&passphrase=jt7NOE43FZPn&reason=Paid+twice+%26+sorry&timestamp=2026-06-13T10%3A00%3A00%2B02%3A00&version=v1' | md5sum
    const byHand = "554c4d9dffeb986048dcf17c69410f77";
    expect(payfastApiSignature(variables, "jt7NOE43FZPn")).toBe(byHand);
    expect(fakePayfastApiSignature(variables, "jt7NOE43FZPn")).toBe(byHand);
  });
});

describe("Ozow's published hash check example", () => {
  // hub.ozow.com, "Step 1: Post from merchant website", "Hash Check Example": these fields and
  // private key hash to the value below. (The page's step-1 string prints cancel.aspx where ErrorUrl
  // belongs; its fields say error.aspx, and the published hash is of error.aspx: checked with
  // printf '%s' 'tstste0001zazar25.00123abc123http://demo.ozow.com/cancel.aspxhttp://demo.ozow.com/error.aspxhttp://demo.ozow.com/success.aspxhttp://demo.ozow.com/notify.aspxfalse215114531aff7134a94c88ceea48e' | sha512sum)
  const privateKey = "215114531AFF7134A94C88CEEA48E";
  const example: Record<string, string> = {
    SiteCode: "TSTSTE0001",
    CountryCode: "ZA",
    CurrencyCode: "ZAR",
    Amount: "25.00",
    TransactionReference: "123",
    BankReference: "ABC123",
    CancelUrl: "http://demo.ozow.com/cancel.aspx",
    ErrorUrl: "http://demo.ozow.com/error.aspx",
    SuccessUrl: "http://demo.ozow.com/success.aspx",
    NotifyUrl: "http://demo.ozow.com/notify.aspx",
    IsTest: "false",
  };
  const published =
    "eedcba106cd8fef3ba6cec5ec80de7d7d7fc90343028bf95b908718c671d0fe885ca08b206d788de009d237a93c18e66edf6ede3f5ca7057e23474106465dcc6";
  /** Ozow's post variables table, numbers 1-28, in its order: HashCheck is over them in this order. */
  const documentedOrder = [
    "SiteCode",
    "CountryCode",
    "CurrencyCode",
    "Amount",
    "TransactionReference",
    "BankReference",
    "Optional1",
    "Optional2",
    "Optional3",
    "Optional4",
    "Optional5",
    "Customer",
    "CancelUrl",
    "ErrorUrl",
    "SuccessUrl",
    "NotifyUrl",
    "IsTest",
    "SelectedBankId",
    "BankAccountNumber",
    "BranchCode",
    "BankAccountName",
    "PayeeDisplayName",
    "ExpiryDateUtc",
    "AllowVariableAmount",
    "VariableAmountMin",
    "VariableAmountMax",
    "CustomerIdentifier",
    "CustomerCellphoneNumber",
  ];

  it("our adapter's hash of the example's values, in Ozow's documented order, is the published hash", () => {
    expect(
      ozowHash(
        documentedOrder.map((name) => example[name] ?? ""),
        privateKey,
      ),
    ).toBe(published);
  });

  it("the fields our checkout posts, in our adapter's order, hash the example as Ozow publishes it (our order keeps Ozow's)", () => {
    expect(OZOW_REQUEST_ORDER.every((name) => documentedOrder.includes(name))).toBe(true);
    expect(OZOW_REQUEST_ORDER.map((name) => documentedOrder.indexOf(name))).toEqual(
      [...OZOW_REQUEST_ORDER.map((name) => documentedOrder.indexOf(name))].sort((a, b) => a - b),
    );
    expect(
      ozowHash(
        OZOW_REQUEST_ORDER.map((name) => example[name]),
        privateKey,
      ),
    ).toBe(published);
  });

  it("our fake computes the published hash, and its payment page takes the example and refuses it with another hash", async () => {
    expect(fakeOzowHash("payment", example, privateKey)).toBe(published);
    const fake = await startFakeOzow({ siteCode: "TSTSTE0001", privateKey, apiKey: "EB5758F2C3B4DF3FF4F2669D5FF5B" });
    try {
      const post = (hash: string) =>
        fetch(`${fake.url}/`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ ...example, HashCheck: hash }).toString(),
        });
      expect((await post(published)).status).toBe(200);
      expect((await post(published.replace(/^e/, "f"))).status).toBe(400);
    } finally {
      await fake.close();
    }
  });
});

describe("Ozow notification and refund hashes (Ozow publishes no worked example: literals computed by hand)", () => {
  const privateKey = "215114531AFF7134A94C88CEEA48E";
  const notification: Record<string, string> = {
    SiteCode: "TSTSTE0001",
    TransactionId: "9c2f0e5a-1111-2222-3333-444455556666",
    TransactionReference: "STRMDSK_1_abc",
    Amount: "1450.00",
    Status: "Complete",
    CurrencyCode: "ZAR",
    IsTest: "false",
    StatusMessage: "Paid",
  };
  // Ozow's "Response variables" order: SiteCode, TransactionId, TransactionReference, Amount, Status,
  // Optional1..5, CurrencyCode, IsTest, StatusMessage, then the private key, lower-cased:
  // printf '%s' 'tstste00019c2f0e5a-1111-2222-3333-444455556666strmdsk_1_abc1450.00completezarfalsepaid215114531aff7134a94c88ceea48e' | sha512sum
  const notificationByHand =
    "979e9ec66585edf2629aa1c8e39a218433a01f79caed7a4d8defe588b4e29844a3bff0e25b3dc71aa5174505fe607cfcc9b0137f7e45f6d159c04a972f73f6e4";

  it("the adapter believes a notification carrying the hand-computed Hash (in capitals too), and the fake signs it so", () => {
    const ozow = createOzowProvider({
      payUrl: "https://pay.ozow.com",
      apiUrl: "https://api.ozow.com",
      siteCode: "TSTSTE0001",
      privateKey,
      apiKey: "api",
    });
    for (const hash of [notificationByHand, notificationByHand.toUpperCase()]) {
      const rawBody = new URLSearchParams({ ...notification, Hash: hash }).toString();
      expect(ozow.readNotification({ rawBody, headers: {} })).toMatchObject({
        reference: "STRMDSK_1_abc",
        status: "paid",
        amountCents: 145000,
      });
    }
    expect(fakeOzowHash("notification", notification, privateKey)).toBe(notificationByHand);
  });

  it("a refund's HashCheck (TransactionId, Amount, RefundReason, NotifyUrl, then the key) is the hand-computed one, by adapter and fake", () => {
    const refund: Record<string, string> = {
      TransactionId: "9c2f0e5a-1111-2222-3333-444455556666",
      Amount: "500.00",
      RefundReason: "Paid twice",
      NotifyUrl: "",
    };
    // printf '%s' '9c2f0e5a-1111-2222-3333-444455556666500.00paid twice215114531aff7134a94c88ceea48e' | sha512sum
    const byHand =
      "0e147818701d157d5aa44ac74660503e626ab52b205f0ef09f07ed243ee98b819e19bb354e7f3afe19c9a680e8c147e113f3f8ad4d36a2443b3f6bd591b445a7";
    expect(
      ozowHash(
        OZOW_REFUND_ORDER.map((name) => refund[name]),
        privateKey,
      ),
    ).toBe(byHand);
    expect(fakeOzowHash("refund", refund, privateKey)).toBe(byHand);
  });
});

describe("Yoco webhooks: the Standard Webhooks specification's published example", () => {
  // Yoco's "Verifying webhook events" follows Standard Webhooks; the specification's README
  // (github.com/standard-webhooks/standard-webhooks, "Signature scheme") publishes this example.
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const timestamp = "1614265330";
  const body = '{"test": 2432232314}';
  const published = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

  it("our adapter and our fake both compute the published signature", () => {
    expect(yocoSignature(secret, id, timestamp, body)).toBe(published);
    expect(fakeStandardWebhookSignature(secret, id, timestamp, body)).toBe(published);
  });
});

describe("iKhokha (iKhokha publishes no worked example: a literal computed by hand)", () => {
  const path = "/public-api/v1/api/payment";
  // A body with double quotes, a single quote and a backslash: each gains a backslash before signing.
  const body = `{"description":"Sipho's \\"3 Months\\" plan","note":"C:\\\\tv"}`;
  // The escaped path + body written out in a file, then:
  //   cat > /tmp/ik.txt <<'EOF'
  //   /public-api/v1/api/payment{\"description\":\"Sipho\'s \\\"3 Months\\\" plan\",\"note\":\"C:\\\\tv\"}
  //   EOF
  //   printf '%s' "$(cat /tmp/ik.txt)" | openssl dgst -sha256 -hmac 's3cret-key'
  const byHand = "9a640b7ac4dc867e51fc51827e4b91f4228f77af00216e92847b9ced10149326";

  it("our adapter and our fake both compute the hand-made IK-SIGN (the secret trimmed)", () => {
    expect(ikSignature(path, body, "  s3cret-key \n")).toBe(byHand);
    expect(fakeIkhokhaSignature(path, body, " s3cret-key ")).toBe(byHand);
  });

  let fake: Awaited<ReturnType<typeof startFakeIkhokha>>;
  beforeAll(async () => {
    fake = await startFakeIkhokha({ appId: "app", appSecret: "s3cret-key" });
  });
  afterAll(() => fake.close());

  it("our fake's API takes a request carrying the hand-made IK-SIGN for its path and body", async () => {
    const answer = await fetch(`${fake.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "ik-appid": "app", "ik-sign": byHand },
      body,
    });
    // signed correctly, so what it refuses is the body's shape (it is no pay-link request)
    expect(answer.status).toBe(400);
    const forged = await fetch(`${fake.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "ik-appid": "app", "ik-sign": byHand.replace(/^9/, "8") },
      body,
    });
    expect(forged.status).toBe(401);
  });
});
