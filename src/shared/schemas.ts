// One zod schema per form and per admin-written entity, used by the browser form, the server
// route and the tests (docs/architecture.md, "Parts"). Strings are trimmed and capped; messages are the spec's
// where it gives them (§5) and plain sentences elsewhere. Unknown keys are stripped (zod's
// default), which is how a browser-sent `amount` never reaches the payment code.
// The schemas live by domain in the sibling files below; this file names what they offer, so the
// many importers of "@/shared/schemas" keep one address (issue 47: no source file over 600 lines).

export type { AdminLogin, ClientLogin, ContentRequestInput } from "./account-schemas";
export {
  adminLoginSchema,
  CONTENT_REQUEST_TYPES,
  clientLoginSchema,
  contentRequestSchema,
  PASSWORD_MIN,
  passwordSchema,
} from "./account-schemas";
export type {
  BannerInput,
  BannerPatch,
  DownloadInput,
  DownloadPatch,
  NoticeInput,
  NoticePatch,
  PackageInput,
  PackagePatch,
  SpecialInput,
  SpecialPatch,
  TestimonialInput,
  TestimonialPatch,
} from "./catalogue-schemas";
export {
  bannerInputSchema,
  bannerPatchSchema,
  dateTime,
  downloadInputSchema,
  downloadPatchSchema,
  NOTICE_AUDIENCES,
  NOTICE_SEVERITIES,
  noticeInputSchema,
  noticePatchSchema,
  packageInputSchema,
  packagePatchSchema,
  specialInputSchema,
  specialPatchSchema,
  testimonialInputSchema,
  testimonialPatchSchema,
} from "./catalogue-schemas";
export type { EftRequest, IdentifyResponse, Payer, PayerDevice, PayerInput, PaylinkRequest } from "./payer-schemas";
export {
  CODE_ROUTE_MESSAGES,
  eftRequestSchema,
  HOSTED_PAYMENT_METHODS,
  IMMEDIATE_START_CONSENT_MESSAGE,
  identifyMessage,
  identifyRequestSchema,
  identifySentTo,
  PAYER_NAME_MESSAGE,
  PAYER_WHATSAPP_MESSAGE,
  PAYMENT_METHOD_MESSAGE,
  payerDeviceSchema,
  payerSchema,
  paylinkRequestSchema,
  VERIFICATION_CODE_MESSAGES,
  verificationCodeSchema,
} from "./payer-schemas";
export type {
  ClientStatusUpdates,
  InstructionsForm,
  InstructionsRequest,
  InterestForm,
  InterestFormInput,
  OrderForm,
  OrderFormInput,
  StatusSubscribe,
} from "./public-form-schemas";
export {
  INTEREST_REQUIRED_MESSAGE,
  instructionsFormSchema,
  instructionsRequestSchema,
  interestFormSchema,
  isFreeTrialOrder,
  OTHER_PLATFORM_MESSAGE,
  orderFormSchema,
  STATUS_EMAIL_MESSAGE,
  statusSubscribeSchema,
  statusUpdatesPatchSchema,
} from "./public-form-schemas";
export { blankToUndefined, isPlainName, NAME_FORMAT_MESSAGE, NAME_MAX } from "./schema-parts";
