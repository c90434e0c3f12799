// The marks beside the ways to pay: a provider with no drawing of ours (one added since) shows the
// short mark the registry gives it, not a card icon that would say it is the card provider.
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "@/web/testing/render";
import { PaymentMark } from "./payment-marks";

afterEach(cleanup);

describe("PaymentMark", () => {
  it("shows the registry's text mark for a provider it has no drawing of, hidden from screen readers", async () => {
    const { container } = await render(<PaymentMark id="newpay" text="NP" />);
    const mark = container.querySelector("[data-mark]");
    expect(mark?.getAttribute("data-mark")).toBe("newpay");
    expect(mark?.getAttribute("aria-hidden")).toBe("true");
    expect(mark?.textContent).toBe("NP");
  });

  it("falls back to the card icon while the registry's mark is not known yet", async () => {
    const { container } = await render(<PaymentMark id="newpay" />);
    expect(container.querySelector("[data-mark]")?.getAttribute("data-mark")).toBe("card");
  });
});
