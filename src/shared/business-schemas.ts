// The business side of the admin (issue 5): leads, clients, payments, content requests and
// the overview. One zod schema per admin form and list query, used by the admin screens, the
// server routes and the tests; and the shapes those routes answer with.
// They live by part in the sibling files below; this file names what they offer, so the many
// importers of "@/shared/business-schemas" keep one address (issue 47: no source file over 600 lines).

export type {
  ClientListQuery,
  ContentRequestListQuery,
  LeadListQuery,
  LeadStatus,
  PaymentListQuery,
} from "./admin-list-schemas";
export {
  CLIENT_SORTS,
  CONTENT_REQUEST_SORTS,
  CONTENT_REQUEST_STATUSES,
  clientListQuerySchema,
  contentRequestListQuerySchema,
  LEAD_FORM_TYPES,
  LEAD_SORTS,
  LEAD_STATUSES,
  leadListQuerySchema,
  PAGE_SIZE_DEFAULT,
  PAYMENT_PROVIDERS,
  PAYMENT_SORTS,
  PAYMENT_STATUSES,
  paymentListQuerySchema,
} from "./admin-list-schemas";
export * from "./admin-panel-schemas";
export type {
  ClientCreate,
  ClientGrant,
  ClientPatch,
  ContentRequestForm,
  ContentRequestPatch,
  LeadConvert,
  LeadPatch,
  PaymentCreate,
  PaymentPatch,
} from "./admin-record-schemas";
export {
  CHANNEL_CONTACT_MESSAGES,
  clientCreateSchema,
  clientGrantSchema,
  clientNotesSchema,
  clientPatchSchema,
  contentRequestFormSchema,
  contentRequestPatchSchema,
  GRANT_LENGTH_MESSAGE,
  GRANT_REASON_MESSAGE,
  leadConvertSchema,
  leadNotesSchema,
  leadPatchSchema,
  paymentCreateSchema,
  paymentNoteSchema,
  paymentPatchSchema,
} from "./admin-record-schemas";
export type {
  AdminClient,
  AdminClientDetail,
  AdminContentRequest,
  AdminLead,
  AdminOutboxMessage,
  AdminPayment,
  AdminStats,
  ClientCreated,
  LaunchChecklist,
  LaunchChecklistItem,
  LeadConversion,
  LifecycleEvent,
  PagedResponse,
  PasswordLinkQueued,
  QueuedTo,
  RelatedClient,
} from "./admin-views";
