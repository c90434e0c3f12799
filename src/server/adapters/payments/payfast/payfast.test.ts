// PayFast's signing rules (docs/payment-providers.md): PHP urlencode, pairs in the order posted,
// the signature left out, the passphrase appended; and how an ITN is read.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { centsFromDecimal, decimalFromCents, formBody, parseFormPairs, phpUrlencode } from "../form-encoding";
import { NotificationRefused } from "../provider";
import { createPayfastProvider, payfastApiSignature, payfastParamString, payfastSignature } from "./adapter";

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
const provider = createPayfastProvider({
  url: "https://sandbox.payfast.co.za/",
  merchantId: "10000100",
  merchantKey: "46f0cd694581a",
  passphrase: "jt7NOE43FZPn",
});

describe("PHP urlencode and form bodies", () => {
  it("encodes as PHP's urlencode: space as +, upper-case hex, ~ * ' ( ) ! escaped, -_. kept", () => {
    expect(phpUrlencode("a b&c=d/e")).toBe("a+b%26c%3Dd%2Fe");
    expect(phpUrlencode("~*'()!-_.")).toBe("%7E%2A%27%28%29%21-_.");
    expect(phpUrlencode("https://x.co.za/p?ref=A_1")).toBe("https%3A%2F%2Fx.co.za%2Fp%3Fref%3DA_1");
    expect(phpUrlencode("é")).toBe("%C3%A9");
  });

  it("parses a form body in order, + as space, and refuses a broken escape", () => {
    expect(parseFormPairs("b=2&a=x+y%21&empty=&flag")).toEqual([
      ["b", "2"],
      ["a", "x y!"],
      ["empty", ""],
      ["flag", ""],
    ]);
    expect(parseFormPairs("a=%ZZ")).toBeNull();
    expect(parseFormPairs(formBody([["n", "Buyer & Co"]]))).toEqual([["n", "Buyer & Co"]]);
  });

  it("reads rand amounts to the cent and writes cents as rand", () => {
    expect(centsFromDecimal("1450.00")).toBe(145000);
    expect(centsFromDecimal("0.5")).toBe(50);
    expect(centsFromDecimal("1450.001")).toBeNull();
    expect(centsFromDecimal("-5.00")).toBeNull();
    expect(decimalFromCents(145005)).toBe("1450.05");
  });
});

describe("PayFast signatures", () => {
  it("signs the pairs in order with the passphrase appended, signature left out", () => {
    const pairs: [string, string][] = [
      ["m_payment_id", "STRMDSK_1"],
      ["item_description", ""],
      ["name_last", "Buyer & Co"],
      ["signature", "ignored"],
    ];
    expect(payfastParamString(pairs)).toBe("m_payment_id=STRMDSK_1&item_description=&name_last=Buyer+%26+Co");
    expect(payfastSignature(pairs, " jt7NOE43FZPn ")).toBe(
      md5("m_payment_id=STRMDSK_1&item_description=&name_last=Buyer+%26+Co&passphrase=jt7NOE43FZPn"),
    );
  });

  it("a checkout's fields are trimmed and blank ones left out", () => {
    const pairs: [string, string][] = [
      ["merchant_id", "10000100"],
      ["name_first", ""],
      ["item_name", " 3 Months IPTV "],
    ];
    expect(payfastParamString(pairs, { checkout: true })).toBe("merchant_id=10000100&item_name=3+Months+IPTV");
  });

  it("the checkout form posts our fields in PayFast's order, amount in rand with two decimals, signed", async () => {
    const checkout = await provider.startCheckout({
      amountCents: 145000,
      description: "3 Months IPTV Subscription",
      reference: "STRMDSK_1_abc",
      urls: {
        notifyUrl: "https://s.co.za/n",
        successUrl: "https://s.co.za/ok",
        cancelUrl: "https://s.co.za/c",
        failureUrl: "https://s.co.za/f",
      },
    });
    if (checkout.kind !== "form") throw new Error("PayFast takes a form");
    expect(checkout.action).toBe("https://sandbox.payfast.co.za/eng/process");
    expect(checkout.fields.map(([k]) => k)).toEqual([
      "merchant_id",
      "merchant_key",
      "return_url",
      "cancel_url",
      "notify_url",
      "m_payment_id",
      "amount",
      "item_name",
      "signature",
    ]);
    expect(Object.fromEntries(checkout.fields)).toMatchObject({ amount: "1450.00", m_payment_id: "STRMDSK_1_abc" });
    expect(checkout.fields.at(-1)?.[1]).toBe(payfastSignature(checkout.fields, "jt7NOE43FZPn", { checkout: true }));
  });
});

describe("reading an ITN", () => {
  const itn = (pairs: [string, string][]) => {
    const signed: [string, string][] = [...pairs, ["signature", payfastSignature(pairs, "jt7NOE43FZPn")]];
    return { rawBody: formBody(signed), headers: {} };
  };
  const good: [string, string][] = [
    ["m_payment_id", "STRMDSK_1_abc"],
    ["pf_payment_id", "1089250"],
    ["payment_status", "COMPLETE"],
    ["item_name", "3 Months"],
    ["amount_gross", "1450.00"],
    ["merchant_id", "10000100"],
  ];
  const refusal = (request: { rawBody: string; headers: Record<string, string> }) => {
    try {
      provider.readNotification(request);
    } catch (error) {
      if (error instanceof NotificationRefused) return { kind: error.kind, fields: error.fields };
      throw error;
    }
    return null;
  };

  it("reads a signed ITN: our reference, PayFast's id, COMPLETE as paid, the amount in cents", () => {
    expect(provider.readNotification(itn(good))).toMatchObject({
      reference: "STRMDSK_1_abc",
      providerPaymentId: "1089250",
      status: "paid",
      amountCents: 145000,
      echo: payfastParamString(good),
    });
  });

  it("missing fields, wrong types and a currency other than ZAR are bad input, by field", () => {
    expect(refusal(itn(good.filter(([k]) => k !== "pf_payment_id")))).toEqual({
      kind: "bad_input",
      fields: { pf_payment_id: "is required" },
    });
    expect(refusal(itn(good.map(([k, v]) => [k, k === "amount_gross" ? "R1450" : v] as [string, string])))?.fields).toHaveProperty(
      "amount_gross",
    );
    expect(refusal(itn([...good, ["currency", "USD"]]))).toEqual({ kind: "bad_input", fields: { currency: "must be ZAR" } });
    expect(refusal({ rawBody: "m_payment_id=%E0%A4%A", headers: {} })?.kind).toBe("bad_input");
  });

  it("a changed field, a wrong passphrase or another merchant is a bad signature", () => {
    const request = itn(good);
    expect(refusal({ ...request, rawBody: request.rawBody.replace("1450.00", "1.00") })?.kind).toBe("bad_signature");
    const other: [string, string][] = [...good, ["signature", payfastSignature(good, "not-the-passphrase")]];
    expect(refusal({ rawBody: formBody(other), headers: {} })?.kind).toBe("bad_signature");
    expect(refusal(itn(good.map(([k, v]) => [k, k === "merchant_id" ? "10000999" : v] as [string, string])))?.kind).toBe("bad_signature");
  });
});

describe("PayFast API signature", () => {
  it("sorts headers, body and passphrase by name, PHP-urlencodes the values (an empty one kept as name=) and MD5s them", () => {
    const variables = {
      "merchant-id": "10000100",
      version: "v1",
      timestamp: "2026-06-13T10:00:00+02:00",
      amount: 5000,
      reason: "Paid twice & sorry",
      notify_buyer: 0,
      empty: "",
    };
    const text =
      "amount=5000&empty=&merchant-id=10000100&notify_buyer=0&passphrase=jt7NOE43FZPn&reason=Paid+twice+%26+sorry" +
      "&timestamp=2026-06-13T10%3A00%3A00%2B02%3A00&version=v1";
    expect(payfastApiSignature(variables, "jt7NOE43FZPn")).toBe(md5(text));
    // a signature field never signs itself, and the order given does not matter
    expect(payfastApiSignature({ signature: "x", ...Object.fromEntries(Object.entries(variables).reverse()) }, "jt7NOE43FZPn")).toBe(
      md5(text),
    );
  });
});
