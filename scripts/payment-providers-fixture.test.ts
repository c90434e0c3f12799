// The web's tests stub GET /api/payment-providers with a fixture (src/web/testing/payment-providers.ts);
// it must be what the server's registry answers, or a page's test would pass on words the shop never shows.
import { describe, expect, it } from "vitest";
import { paymentProviderInfos } from "@/server/adapters/payments/registry";
import { PAYMENT_PROVIDERS_FIXTURE } from "@/web/testing/payment-providers";

describe("the web's payment providers fixture", () => {
  it("is exactly what GET /api/payment-providers answers", () => {
    expect(PAYMENT_PROVIDERS_FIXTURE).toEqual(paymentProviderInfos());
  });
});
