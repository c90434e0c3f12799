import { describe, expect, it } from "vitest";
import { SUPPORT_HOURS } from "./constants";
import { LOGIN_HINTS, promisedLoginChannel } from "./login-channel";

describe("the login's channel promised on the pages (issue 41 item 7)", () => {
  it.each([
    // shop, e-mail typed, promised
    ["whatsapp", "", "whatsapp"],
    ["whatsapp", "thandi@example.co.za", "whatsapp"],
    ["email", "thandi@example.co.za", "email"],
    ["email", "", "owner"],
    ["email", "not-an-address", "owner"],
    [undefined, "thandi@example.co.za", "email"],
  ] as const)("shop %s, e-mail %j: %s", (shop, email, promised) => {
    expect(promisedLoginChannel(shop, email)).toBe(promised);
  });

  it("promises the login under the WhatsApp number only when it goes by WhatsApp, and names the support hours when it waits for the owner", () => {
    expect(LOGIN_HINTS.whatsapp.whatsapp).toBe("Your login details are sent here.");
    expect(LOGIN_HINTS.email.whatsapp).not.toContain("login");
    expect(LOGIN_HINTS.email.email).toBe("Your login details are sent here.");
    expect(LOGIN_HINTS.owner.whatsapp).toContain(SUPPORT_HOURS);
  });
});
