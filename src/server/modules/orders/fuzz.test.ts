// Property: whatever body arrives at the public form endpoints — random JSON, wrong types,
// unicode (NUL, unpaired surrogates, emoji), huge strings, deep nesting — the answer is never
// a 5xx, and every refusal is in the API's error shape.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/server/testing";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 });
});
afterAll(async () => {
  await t?.close();
});

const nasty = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "😀👍🏽",
  "‮rtl",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  " ",
  "",
);
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  nasty,
  // Long and huge: past every field cap, and now and then past the 256 KB body limit.
  fc.integer({ min: 100, max: 300_000 }).map((length) => "é".repeat(length)),
);
const wild = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/**
 * A form body: random JSON; the endpoint's keys with any of them wild or absent; or a mostly
 * valid form (so the saving path runs too) with the odd wild field and random extra keys.
 */
function formBody(valid: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const anyFields = Object.fromEntries(Object.entries(valid).map(([key, good]) => [key, fc.oneof(good, wild)]));
  const mostlyValid = Object.fromEntries(
    Object.entries(valid).map(([key, good]) => [key, fc.oneof({ arbitrary: good, weight: 15 }, { arbitrary: wild, weight: 1 })]),
  );
  const extra = fc.dictionary(fc.string({ unit: "binary", maxLength: 10 }), wild, { maxKeys: 3 });
  return fc.oneof(
    { arbitrary: fc.jsonValue(), weight: 1 },
    { arbitrary: fc.record(anyFields, { requiredKeys: [] }), weight: 2 },
    { arbitrary: fc.tuple(fc.record(mostlyValid), extra).map(([form, more]) => ({ ...more, ...form })), weight: 3 },
  );
}

const phone = fc.integer({ min: 0, max: 9_999_999 }).map((n) => `08${String(n).padStart(8, "0")}`);
const email = fc.tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom("example.co.za", "EXAMPLE.com")).map(([u, d]) => `${u}@${d}`);
const name = fc.oneof(
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
  nasty.map((s) => `Thabo${s}`),
);

const orderBody = formBody({
  name,
  email,
  whatsapp: phone,
  package: fc.constantFrom("3 Months", "Month to Month", ""),
  duration: fc.constantFrom("free-trial", "3 Months", ""),
  device: fc.constantFrom("android", "pc", ""),
  internetPlatform: fc.constantFrom("fibre", "other", ""),
  otherPlatform: fc.string({ maxLength: 20 }),
  internetSpeed: fc.string({ unit: "grapheme", maxLength: 20 }),
  formType: fc.constantFrom("order", "free-trial"),
  marketingOptIn: fc.boolean(),
});

const interestBody = formBody({
  firstName: name,
  lastName: name,
  email,
  whatsapp: phone,
  communicationMethod: fc.constantFrom("whatsapp", "email"),
  packageName: fc.string({ unit: "grapheme", maxLength: 30 }),
  packagePrice: fc.oneof(fc.constant("FREE"), fc.integer({ min: 0, max: 20_000 }), fc.double()),
  duration: fc.string({ maxLength: 20 }),
  marketingOptIn: fc.boolean(),
});

async function neverFails(url: string, body: unknown, idempotencyKey: string | null): Promise<void> {
  const res = await t.app.inject({
    method: "POST",
    url,
    payload: JSON.stringify(body),
    headers: { "content-type": "application/json", ...(idempotencyKey === null ? {} : { "idempotency-key": idempotencyKey }) },
  });
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const { error } = res.json();
    expect(typeof error.code).toBe("string");
    expect(typeof error.message).toBe("string");
  } else {
    expect(res.json()).toMatchObject({ success: true, id: expect.any(String) });
  }
}

const key = fc.option(fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 60 }), { nil: null });

describe("generated bodies never get a 5xx", () => {
  it("POST /api/orders", { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(orderBody, key, (body, k) => neverFails("/api/orders", body, k)),
      { numRuns: 150 },
    );
  });

  it("POST /api/interest", { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(interestBody, key, (body, k) => neverFails("/api/interest", body, k)),
      { numRuns: 150 },
    );
  });

  it("a deeply nested extra key is stored cut short, not a stack overflow", async () => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const body = `{"name":"Deep Nest","email":"deep@example.co.za","whatsapp":"0821110000","extra":${deep}}`;
    const res = await t.app.inject({ method: "POST", url: "/api/orders", payload: body, headers: { "content-type": "application/json" } });
    expect(res.statusCode).toBe(201);
  });
});
