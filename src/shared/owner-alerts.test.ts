// The owner-alert settings as read: defaults for what is unset or unreadable (alerts on, the
// digest off at 07:00), the number in its stored form, and the value stored for each key.
import { describe, expect, it } from "vitest";
import { OWNER_ALERT_CAUSES, OWNER_ALERT_SETTINGS, ownerAlertPrefs, storedOwnerAlertValue } from "./owner-alerts";

describe("ownerAlertPrefs", () => {
  it("reads nothing set as: no address or number, every alert on, the digest off at 7", () => {
    expect(ownerAlertPrefs({})).toEqual({
      email: "",
      whatsapp: "",
      on: {
        "panel-failed": true,
        "low-credits": true,
        "eft-order": true,
        "outbox-failed": true,
        "unsellable-package": true,
        "mac-held": true,
        "code-cap": true,
        "privacy-request": true,
        "renewal-failed": true,
        "payment-mismatch": true,
        "payment-held": true,
      },
      digest: false,
      digestHour: 7,
    });
  });

  it("reads the owner's choices, and an unreadable value as its default", () => {
    const prefs = ownerAlertPrefs({
      [OWNER_ALERT_SETTINGS.email]: " owner@example.co.za ",
      [OWNER_ALERT_SETTINGS.whatsapp]: "082 555 0100",
      [OWNER_ALERT_CAUSES["eft-order"].setting]: "off",
      [OWNER_ALERT_CAUSES["low-credits"].setting]: "maybe",
      [OWNER_ALERT_SETTINGS.digest]: "on",
      [OWNER_ALERT_SETTINGS.digestHour]: "99",
    });
    expect(prefs).toMatchObject({ email: "owner@example.co.za", whatsapp: "27825550100", digest: true, digestHour: 7 });
    expect(prefs.on).toMatchObject({ "eft-order": false, "low-credits": true });
    expect(ownerAlertPrefs({ [OWNER_ALERT_SETTINGS.email]: "owner@", [OWNER_ALERT_SETTINGS.digestHour]: "0" })).toMatchObject({
      email: "",
      digestHour: 0,
    });
  });
});

describe("storedOwnerAlertValue", () => {
  it.each([
    [OWNER_ALERT_SETTINGS.whatsapp, "+27 82 555 0100", "27825550100"],
    [OWNER_ALERT_SETTINGS.whatsapp, "  ", ""],
    [OWNER_ALERT_SETTINGS.email, " owner@example.co.za ", "owner@example.co.za"],
    [OWNER_ALERT_SETTINGS.digestHour, "7", "7"],
    ["support_hours", " 9-5 ", " 9-5 "],
  ])("%s %j is stored as %j", (key, value, stored) => {
    expect(storedOwnerAlertValue(key, value)).toBe(stored);
  });
});
