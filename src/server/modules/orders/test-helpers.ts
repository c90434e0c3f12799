// What the order tests send: a valid paid order from the person given.

/** A valid paid order's body: the person's name, e-mail and WhatsApp number; a 3-month Android order on fibre. */
export function paidOrder(
  person: { name: string; email: string; whatsapp: string },
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...person,
    package: "3 Months",
    duration: "3 Months",
    device: "android",
    internetPlatform: "fibre",
    otherPlatform: "",
    internetSpeed: "50 Mbps",
    formType: "order",
    marketingOptIn: false,
    ...overrides,
  };
}
