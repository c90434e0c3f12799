import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  adminLoginSchema,
  bannerInputSchema,
  bannerPatchSchema,
  clientLoginSchema,
  contentRequestSchema,
  downloadInputSchema,
  eftRequestSchema,
  IMMEDIATE_START_CONSENT_MESSAGE,
  INTEREST_REQUIRED_MESSAGE,
  instructionsRequestSchema,
  interestFormSchema,
  isFreeTrialOrder,
  NAME_FORMAT_MESSAGE,
  noticeInputSchema,
  noticePatchSchema,
  OTHER_PLATFORM_MESSAGE,
  orderFormSchema,
  PAYER_NAME_MESSAGE,
  PAYER_WHATSAPP_MESSAGE,
  packageInputSchema,
  packagePatchSchema,
  passwordSchema,
  payerSchema,
  paylinkRequestSchema,
  specialInputSchema,
  specialPatchSchema,
  testimonialInputSchema,
} from "./schemas";

/** The first message per field, as the API's error shape and the form show them. */
function fieldErrors(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

const UUID = "3f6c1b2a-8d4e-4f5a-9b6c-7d8e9f0a1b2c";

describe("orderFormSchema — spec §5: only Full Name, Email Address and WhatsApp Number enforced", () => {
  const valid = { name: "Thabo Mokoena", email: "thabo@example.co.za", whatsapp: "082 123 4567" };

  it("accepts the three required fields alone and fills the rest", () => {
    expect(orderFormSchema.parse(valid)).toEqual({
      ...valid,
      package: "",
      duration: "",
      device: "",
      internetPlatform: "",
      otherPlatform: "",
      internetSpeed: "",
      marketingOptIn: false,
    });
  });

  it("trims and keeps a full order", () => {
    const order = orderFormSchema.parse({
      name: "  Thabo Mokoena ",
      email: " thabo@example.co.za ",
      whatsapp: "+27 82 123 4567",
      package: "3 Months",
      duration: "3 Months",
      device: "firestick",
      internetPlatform: "fibre",
      internetSpeed: "45 Mbps",
      formType: "order",
      marketingOptIn: true,
    });
    expect(order).toMatchObject({ name: "Thabo Mokoena", email: "thabo@example.co.za", device: "firestick", marketingOptIn: true });
  });

  it.each([
    ["name missing", { ...valid, name: undefined }, { name: "Please enter your full name" }],
    ["name blank", { ...valid, name: "   " }, { name: "Please enter your full name" }],
    ["name too long", { ...valid, name: "x".repeat(81) }, { name: "Full name must be 80 characters or fewer" }],
    ["name with a link", { ...valid, name: "Hi. Pay at https://evil.example/pay" }, { name: NAME_FORMAT_MESSAGE }],
    ["name with a domain", { ...valid, name: "see evil.example/pay" }, { name: NAME_FORMAT_MESSAGE }],
    ["name with a line break", { ...valid, name: "Thabo\nYour line is blocked" }, { name: NAME_FORMAT_MESSAGE }],
    ["email missing", { ...valid, email: "" }, { email: "Please enter a valid email address" }],
    ["email not an address", { ...valid, email: "thabo@" }, { email: "Please enter a valid email address" }],
    ["whatsapp missing", { ...valid, whatsapp: "" }, { whatsapp: "Please enter a valid WhatsApp number" }],
    ["whatsapp 8 digits", { ...valid, whatsapp: "8212 3456" }, { whatsapp: "Please enter a valid WhatsApp number" }],
    ["whatsapp 16 digits", { ...valid, whatsapp: "1234567890123456" }, { whatsapp: "Please enter a valid WhatsApp number" }],
    ["unknown device", { ...valid, device: "toaster" }, { device: "Please choose a device from the list" }],
    [
      "unknown platform",
      { ...valid, internetPlatform: "dial-up" },
      { internetPlatform: "Please choose an internet platform from the list" },
    ],
    ["'other' without its text", { ...valid, internetPlatform: "other", otherPlatform: " " }, { otherPlatform: OTHER_PLATFORM_MESSAGE }],
    ["duration too long", { ...valid, duration: "x".repeat(41) }, { duration: "Duration must be 40 characters or fewer" }],
    ["speed too long", { ...valid, internetSpeed: "9".repeat(41) }, { internetSpeed: "Internet speed must be 40 characters or fewer" }],
    ["bad form type", { ...valid, formType: "quote" }, { formType: "Form type must be order or free-trial" }],
  ])("%s", (_, input, errors) => {
    expect(fieldErrors(orderFormSchema, input)).toEqual(errors);
  });

  it.each([
    ["free-trial", "order", true],
    ["3 Months", "free-trial", true],
    ["3 Months", "order", false],
    ["", undefined, false],
  ] as const)("duration %j, form type %s → free trial %s", (duration, formType, trial) => {
    expect(isFreeTrialOrder({ duration, formType })).toBe(trial);
  });

  it("reports every problem at once, the 'other' rule included", () => {
    expect(fieldErrors(orderFormSchema, { name: "", email: "x", whatsapp: "1", internetPlatform: "other" })).toEqual({
      name: "Please enter your full name",
      email: "Please enter a valid email address",
      whatsapp: "Please enter a valid WhatsApp number",
      otherPlatform: OTHER_PLATFORM_MESSAGE,
    });
  });

  it("gives one message for a blank required field", () => {
    const result = orderFormSchema.safeParse({ ...valid, email: " " });
    expect(result.error?.issues.map((i) => i.message)).toEqual(["Please enter a valid email address"]);
  });

  it("accepts 'other' with its text, and 'free-trial' as a duration", () => {
    const order = orderFormSchema.parse({ ...valid, internetPlatform: "other", otherPlatform: "Satellite", duration: "free-trial" });
    expect(order).toMatchObject({ internetPlatform: "other", otherPlatform: "Satellite", duration: "free-trial" });
  });
});

describe("interestFormSchema — spec §5: firstName, lastName, email and whatsapp required", () => {
  const valid = { firstName: "Lerato", lastName: "Dlamini", email: "lerato@example.com", whatsapp: "+27821234567" };

  it.each(["firstName", "lastName", "email", "whatsapp"])("%s empty → 'Please fill in all required fields.'", (field) => {
    expect(fieldErrors(interestFormSchema, { ...valid, [field]: "" })).toEqual({ [field]: INTEREST_REQUIRED_MESSAGE });
    expect(INTEREST_REQUIRED_MESSAGE).toBe("Please fill in all required fields.");
  });

  it("defaults communicationMethod to 'whatsapp' (spec §3)", () => {
    expect(interestFormSchema.parse(valid)).toMatchObject({
      communicationMethod: "whatsapp",
      packageName: "",
      packagePrice: "",
      marketingOptIn: false,
    });
  });

  it.each([
    [650, "650"],
    [1650.5, "1650.5"],
    ["FREE", "FREE"],
    [" R650 ", "R650"],
  ])("packagePrice %j → %j", (packagePrice, text) => {
    expect(interestFormSchema.parse({ ...valid, packagePrice }).packagePrice).toBe(text);
  });

  it.each([
    ["email", "lerato", "Please enter a valid email address"],
    ["whatsapp", "1234", "Please enter a valid WhatsApp number"],
    ["communicationMethod", "sms", "Choose WhatsApp or email"],
  ])("%s %j → %s", (field, value, message) => {
    expect(fieldErrors(interestFormSchema, { ...valid, [field]: value })).toEqual({ [field]: message });
  });
});

describe("instructionsRequestSchema — spec §5 messages exactly", () => {
  it.each([
    [{ type: "whatsapp", contact: "" }, "Please enter contact information"],
    [{ type: "email" }, "Please enter contact information"],
    [{ type: "whatsapp", contact: "12345" }, "Please enter a valid phone number"],
    [{ type: "email", contact: "nobody" }, "Please enter a valid email address"],
  ])("%o → %s", (input, message) => {
    expect(fieldErrors(instructionsRequestSchema, input)).toEqual({ contact: message });
  });

  it.each([
    { type: "whatsapp", contact: " 082 123 4567 " },
    { type: "email", contact: "thabo@example.co.za" },
  ])("accepts %o", (input) => {
    expect(instructionsRequestSchema.parse(input).contact).toBe(input.contact.trim());
  });

  it("needs a channel", () => {
    expect(fieldErrors(instructionsRequestSchema, { type: "sms", contact: "0821234567" })).toMatchObject({
      type: "Choose WhatsApp or email",
    });
  });
});

describe("payerSchema — the review step before a payment: name, WhatsApp, optional e-mail, consent", () => {
  const valid = { name: "Thabo Mokoena", whatsapp: "082 123 4567", immediateStartConsent: true };

  it("words the messages", () => {
    expect(PAYER_NAME_MESSAGE).toBe("Please enter your full name");
    expect(PAYER_WHATSAPP_MESSAGE).toBe("Please enter a valid WhatsApp number");
    expect(IMMEDIATE_START_CONSENT_MESSAGE).toBe(
      "Please confirm that your subscription may start as soon as you have paid (this waives the 7-day cooling-off period)",
    );
  });

  it("trims a payer and takes the e-mail address as optional", () => {
    expect(payerSchema.parse({ ...valid, name: "  Thabo Mokoena ", email: "" })).toEqual(valid);
    expect(payerSchema.parse({ ...valid, email: " thabo@example.co.za " })).toEqual({ ...valid, email: "thabo@example.co.za" });
    expect(payerSchema.parse({ ...valid, email: null })).toEqual(valid);
  });

  it.each([
    ["name missing", { name: undefined }, { name: PAYER_NAME_MESSAGE }],
    ["name blank", { name: "   " }, { name: PAYER_NAME_MESSAGE }],
    ["name too long", { name: "x".repeat(81) }, { name: "Full name must be 80 characters or fewer" }],
    ["name with www.", { name: "www.evil" }, { name: NAME_FORMAT_MESSAGE }],
    ["whatsapp missing", { whatsapp: undefined }, { whatsapp: PAYER_WHATSAPP_MESSAGE }],
    ["whatsapp blank", { whatsapp: " " }, { whatsapp: PAYER_WHATSAPP_MESSAGE }],
    ["whatsapp 8 digits", { whatsapp: "8212 3456" }, { whatsapp: PAYER_WHATSAPP_MESSAGE }],
    ["whatsapp 16 digits", { whatsapp: "1234567890123456" }, { whatsapp: PAYER_WHATSAPP_MESSAGE }],
    ["email not an address", { email: "thabo@" }, { email: "Please enter a valid email address" }],
    ["consent missing", { immediateStartConsent: undefined }, { immediateStartConsent: IMMEDIATE_START_CONSENT_MESSAGE }],
    ["consent false", { immediateStartConsent: false }, { immediateStartConsent: IMMEDIATE_START_CONSENT_MESSAGE }],
    ["consent as text", { immediateStartConsent: "true" }, { immediateStartConsent: IMMEDIATE_START_CONSENT_MESSAGE }],
  ])("%s", (_, change, errors) => {
    expect(fieldErrors(payerSchema, { ...valid, ...change })).toEqual(errors);
  });

  it("reports every problem at once", () => {
    expect(fieldErrors(payerSchema, {})).toEqual({
      name: PAYER_NAME_MESSAGE,
      whatsapp: PAYER_WHATSAPP_MESSAGE,
      immediateStartConsent: IMMEDIATE_START_CONSENT_MESSAGE,
    });
  });
});

describe.each([
  ["paylinkRequestSchema", paylinkRequestSchema],
  ["eftRequestSchema", eftRequestSchema],
])("%s — the package, the payer's details when given, and the immediate-start consent", (_, schema) => {
  const consent = { immediateStartConsent: true } as const;

  it("drops an amount sent by the browser: the server prices the package", () => {
    const parsed = schema.parse({ packageId: UUID, amount: 1, email: "", clientId: "", ...consent });
    expect(parsed).toEqual({ packageId: UUID, ...consent });
    expect("amount" in parsed).toBe(false);
  });

  it("no longer takes clientEmail (the payer's e-mail is `email`)", () => {
    expect(schema.parse({ packageId: UUID, clientEmail: "x@example.com", ...consent })).toEqual({ packageId: UUID, ...consent });
  });

  it("takes the payer's details, trimmed; blanks count as not given (a signed-in client sends none)", () => {
    expect(schema.parse({ packageId: UUID, name: " ", whatsapp: "", email: null, ...consent })).toEqual({ packageId: UUID, ...consent });
    expect(
      schema.parse({ packageId: UUID, name: " Sipho ", email: "s@example.com", whatsapp: "0821234567", clientId: UUID, ...consent }),
    ).toEqual({ packageId: UUID, name: "Sipho", email: "s@example.com", whatsapp: "0821234567", clientId: UUID, ...consent });
  });

  it.each([
    [{ packageId: "fallback-1", ...consent }, { packageId: "Please choose a package" }],
    [{ ...consent }, { packageId: "Please choose a package" }],
    [{ packageId: UUID }, { immediateStartConsent: IMMEDIATE_START_CONSENT_MESSAGE }],
    [{ packageId: UUID, immediateStartConsent: false }, { immediateStartConsent: IMMEDIATE_START_CONSENT_MESSAGE }],
    [{ packageId: UUID, email: "x@", ...consent }, { email: "Please enter a valid email address" }],
    [{ packageId: UUID, whatsapp: "123", ...consent }, { whatsapp: PAYER_WHATSAPP_MESSAGE }],
    [{ packageId: UUID, name: "x".repeat(81), ...consent }, { name: "Full name must be 80 characters or fewer" }],
    [{ packageId: UUID, clientId: "42", ...consent }, { clientId: "Client id is not valid" }],
    [
      { packageId: UUID, clientId: "42" },
      { clientId: "Client id is not valid", immediateStartConsent: IMMEDIATE_START_CONSENT_MESSAGE },
    ],
  ])("%o → %o", (input, errors) => {
    expect(fieldErrors(schema, input)).toEqual(errors);
  });
});

describe("login schemas — spec §5: admin email + password, client username + password", () => {
  it("lower-cases and trims the admin email but never touches the password", () => {
    expect(adminLoginSchema.parse({ email: " Admin@StreamDesk.Local ", password: " secret " })).toEqual({
      email: "admin@streamdesk.local",
      password: " secret ",
    });
  });

  it.each([
    [adminLoginSchema, { email: "", password: "x" }, { email: "Please enter your email" }],
    [adminLoginSchema, { email: "a@b.co", password: "" }, { password: "Please enter your password" }],
    [clientLoginSchema, { username: " ", password: "x" }, { username: "Please enter your username" }],
    [clientLoginSchema, { username: "thabo", password: "x".repeat(201) }, { password: expect.any(String) }],
  ])("%#: blank or oversized fields are refused", (schema, input, errors) => {
    expect(fieldErrors(schema, input)).toEqual(errors);
  });
});

describe("passwordSchema — at least 10 characters, not all one kind", () => {
  it.each([
    ["correct horse", true], // letters and a space
    ["Streaming2026", true],
    ["0821234567x", true],
    ["ABCDEFGHIJk", true],
    ["short1A!", false], // 8 characters
    ["0821234567", false], // all digits
    ["abcdefghijkl", false], // one lower-case word
    ["ABCDEFGHIJKL", false],
    ["!!!!!!!!!!!!", false],
  ])("%j → %s", (password, ok) => {
    expect(passwordSchema.safeParse(password).success).toBe(ok);
  });

  it.each([
    ["short1A!", "Password must be at least 10 characters"],
    ["abcdefghijkl", "Use a mix of letters, numbers or symbols, not only one kind of character"],
    ["aA".repeat(101), "Password must be 200 characters or fewer"],
  ])("%j → %s", (password, message) => {
    expect(fieldErrors(passwordSchema, password)._).toBe(message);
  });
});

describe("contentRequestSchema", () => {
  it.each([
    [{ request_type: "channel", title: "SuperSport Rugby" }, {}],
    [{ request_type: "film", title: "x".repeat(200), details: "y".repeat(2000) }, {}],
    [{ request_type: "podcast", title: "x" }, { request_type: "Choose channel, film, series or other" }],
    [{ request_type: "series", title: " " }, { title: "Please enter a title" }],
    [{ request_type: "series", title: "x".repeat(201) }, { title: "Title must be 200 characters or fewer" }],
    [{ request_type: "other", title: "x", details: "y".repeat(2001) }, { details: "Details must be 2000 characters or fewer" }],
  ])("%#", (input, errors) => {
    expect(fieldErrors(contentRequestSchema, input)).toEqual(errors);
  });
});

describe("packageInputSchema", () => {
  const valid = { name: "3 Months", price: 1650, duration: "3 Months" };

  it("fills defaults on create", () => {
    expect(packageInputSchema.parse(valid)).toEqual({
      ...valid,
      duration_months: 1,
      features: [],
      description: "",
      is_featured: false,
      sort_order: 0,
      is_active: true,
    });
  });

  it.each([
    [0, true],
    [199.5, true],
    [199.99, true],
    ["650", true], // from a form input
    [1_000_000, true],
    [199.999, false],
    [-1, false],
    [1_000_000.01, false],
    ["R650", false],
    [Number.NaN, false],
  ])("price %j → %s", (price, ok) => {
    expect(packageInputSchema.safeParse({ ...valid, price }).success).toBe(ok);
  });

  it.each([
    [{ duration_months: 121 }, "duration_months"],
    [{ duration_months: 1.5 }, "duration_months"],
    [{ features: ["ok", " "] }, "features.1"],
    [{ name: "" }, "name"],
  ])("refuses %o", (change, field) => {
    expect(Object.keys(fieldErrors(packageInputSchema, { ...valid, ...change }))).toEqual([field]);
  });

  it("a patch carries only the fields sent (no defaults overwrite stored values)", () => {
    expect(packagePatchSchema.parse({ price: "500" })).toEqual({ price: 500 });
    expect(packagePatchSchema.parse({})).toEqual({});
  });
});

describe("specialInputSchema", () => {
  const valid = { package_name: "3 Months", original_price: 1650, special_price: 1500 };

  it("fills defaults and keeps the window", () => {
    const parsed = specialInputSchema.parse({ ...valid, starts_at: "2026-11-01T00:00:00+02:00", ends_at: "" });
    expect(parsed).toEqual({ ...valid, title: "", description: "", is_active: true, starts_at: "2026-11-01T00:00:00+02:00" });
  });

  it.each([
    [{ special_price: 1650 }, { special_price: "The special price must be lower than the original price" }],
    [{ starts_at: "2026-11-02T00:00:00Z", ends_at: "2026-11-01T00:00:00Z" }, { ends_at: "The end must be after the start" }],
    [{ starts_at: "2026-11-02" }, { starts_at: expect.stringContaining("time zone") }],
  ])("%o → %o", (change, errors) => {
    expect(fieldErrors(specialInputSchema, { ...valid, ...change })).toEqual(errors);
  });

  it("checks the price rule even while another field is wrong", () => {
    expect(fieldErrors(specialInputSchema, { ...valid, package_name: "", special_price: 2000 })).toEqual({
      package_name: "Please enter the package name the special applies to",
      special_price: "The special price must be lower than the original price",
    });
  });

  it("a patch checks prices only when both are sent", () => {
    expect(specialPatchSchema.parse({ special_price: 1 })).toEqual({ special_price: 1 });
    expect(specialPatchSchema.safeParse({ special_price: 10, original_price: 5 }).success).toBe(false);
  });
});

describe("banner, download, testimonial and notice input", () => {
  it("banner defaults to an inline 'info' banner; a patch adds nothing", () => {
    expect(bannerInputSchema.parse({ title: "Festive special" })).toEqual({
      title: "Festive special",
      content: "",
      banner_type: "info",
      is_active: true,
      sort_order: 0,
    });
    expect(bannerPatchSchema.parse({ is_active: false })).toEqual({ is_active: false });
  });

  it.each([
    ["https://cdn.example.com/app.apk", true],
    ["/downloads/player.apk", true],
    ["", true], // no URL yet
    ["javascript:alert(1)", false],
    ["//evil.example/app.apk", false],
    ["ftp://example.com/app.apk", false],
  ])("download_url %j → %s", (download_url, ok) => {
    expect(downloadInputSchema.safeParse({ name: "Player", download_url }).success).toBe(ok);
  });

  it("download device_compatibility takes a list or a single text (spec §3)", () => {
    expect(downloadInputSchema.parse({ name: "Player", device_compatibility: "Android" }).device_compatibility).toEqual(["Android"]);
    expect(downloadInputSchema.parse({ name: "Player", device_compatibility: ["Android", "Fire Stick"] }).device_compatibility).toEqual([
      "Android",
      "Fire Stick",
    ]);
    expect(downloadInputSchema.parse({ name: "Player" })).toMatchObject({ device_compatibility: [], is_featured: false, is_active: true });
  });

  it.each([
    [{ rating: 0 }, false],
    [{ rating: 6 }, false],
    [{ rating: 4.5 }, false],
    [{ rating: 4 }, true],
    [{}, true],
  ])("testimonial %o → %s", (change, ok) => {
    expect(testimonialInputSchema.safeParse({ client_name: "Naledi", content: "Works great", ...change }).success).toBe(ok);
  });

  it("testimonials start unpublished and unapproved with 5 stars", () => {
    expect(testimonialInputSchema.parse({ client_name: "Naledi", content: "Works great" })).toMatchObject({
      rating: 5,
      is_published: false,
      is_approved: false,
    });
  });

  it("notices default to info for everyone and check their window", () => {
    expect(noticeInputSchema.parse({ title: "Maintenance tonight" })).toMatchObject({ severity: "info", audience: "all", is_active: true });
    expect(fieldErrors(noticeInputSchema, { title: "x", severity: "panic" })).toEqual({
      severity: "Severity must be info, warning or critical",
    });
    expect(fieldErrors(noticePatchSchema, { starts_at: "2026-11-02T00:00:00+02:00", ends_at: "2026-11-01T00:00:00+02:00" })).toEqual({
      ends_at: "The end must be after the start",
    });
  });
});
