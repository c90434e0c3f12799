// Where the card payment provider sends the customer back: /payment/success, /failure and
// /cancel, each with ?ref=. The address only says where the provider sent them; the page shows
// the payment's REAL status from GET /api/payments/:ref (spec: never trust the landing page),
// and, once paid, only what the payment's outcome says it did: an account created, a term
// renewed, a suspended account, or nothing yet; and for each message to the customer, where it
// really stands (queued, waiting for the business to send it on WhatsApp, sent, delivered,
// read, failed), asked again every 5 s while one has not gone. A card payment that failed or was
// cancelled offers card again and, when the shop takes EFT, EFT beside it (issue 28).
import { CircleCheck, CircleX, Clock, CreditCard, Landmark, type LucideIcon, RefreshCw, RotateCcw, SearchX, Undo2 } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import type { PaymentMessage, PaymentMessageKind, PaymentOutcome, PaymentStatus, PaymentStatusView, SentTo } from "@/shared/api";
import { EFT_CARD_ONLY_MESSAGE } from "@/shared/constants";
import { formatDate, formatDateTime } from "@/shared/dates";
import { type LoginChannel, OWNER_SENDS_WHEN } from "@/shared/login-channel";
import { formatRand } from "@/shared/money";
import { EftDetails } from "@/web/components/eft-details";
import { NoticeFrame, NoticePage } from "@/web/components/notice-page";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { usePageTitle } from "@/web/lib/page-title";
import { useBranding } from "@/web/lib/queries/branding";
import { usePaymentMethods } from "@/web/lib/queries/payment-methods";
import { usePaymentStatus } from "./api/get-payment-status";
import { usePayByEftInstead } from "./api/pay-by-eft-instead";
import { CardChangeSteps, cardChangeHeadline } from "./card-change-steps";
import { CreditOrderSteps, credits, PartnerPortalLink } from "./credit-order-steps";
import { Actions, ContactButtons, Steps, WhatsAppButton } from "./result-steps";

type Landing = "success" | "failure" | "cancel";

const OUTCOME: Record<PaymentStatus, { title: string; badge: string; variant: BadgeVariant; Icon: LucideIcon; iconClass: string }> = {
  paid: { title: "Payment received", badge: "Paid", variant: "ok", Icon: CircleCheck, iconClass: "bg-ok/15 text-ok" },
  pending: { title: "Confirming your payment…", badge: "Pending", variant: "warn", Icon: Clock, iconClass: "bg-warn/15 text-warn" },
  failed: { title: "Payment failed", badge: "Failed", variant: "bad", Icon: CircleX, iconClass: "bg-bad/15 text-bad" },
  cancelled: {
    title: "Payment cancelled",
    badge: "Cancelled",
    variant: "neutral",
    Icon: Undo2,
    iconClass: "bg-surface-overlay text-ink-muted",
  },
  refunded: {
    title: "Payment refunded",
    badge: "Refunded",
    variant: "neutral",
    Icon: RotateCcw,
    iconClass: "bg-surface-overlay text-ink-muted",
  },
};

const TRY_AGAIN = "/pricing#pricing-packages";

/** The page's heading: a paid payment's says what it did for the payer. */
function headline(payment: PaymentStatusView): string {
  const cardChange = payment.card_change ? cardChangeHeadline(payment, payment.card_change) : null;
  if (cardChange) return cardChange;
  if (payment.status !== "paid" || payment.credit_order) return (OUTCOME[payment.status] ?? OUTCOME.pending).title;
  const { account, suspended } = payment.outcome;
  if (suspended) return "Thank you for your payment";
  if (account === "created") return "Your account is ready";
  if (account === "renewed") return "Subscription renewed";
  return "Thank you for your payment";
}

const MESSAGE_NAMES: Record<PaymentMessageKind, { name: string; plural: boolean }> = {
  receipt: { name: "Your receipt", plural: false },
  welcome: { name: "Your client portal login", plural: false },
  credentials: { name: "Your streaming login details", plural: true },
};

/** 'your WhatsApp ending 4567', 'your e-mail j***@gmail.com' (the hints arrive masked). */
function place(channel: PaymentMessage["channel"], sentTo: readonly SentTo[]): string {
  const hint = sentTo.find((s) => s.channel === channel)?.hint;
  return `your ${channel === "whatsapp" ? "WhatsApp" : "e-mail"}${hint ? ` ${hint}` : ""}`;
}

/** One message as it stands, in words that claim no more than its state. */
export function messageText(message: PaymentMessage, sentTo: readonly SentTo[], business: string): string {
  const { name, plural } = MESSAGE_NAMES[message.kind] ?? { name: "Your message", plural: false };
  const is = plural ? "are" : "is";
  const was = plural ? "were" : "was";
  const where = place(message.channel, sentTo);
  switch (message.state) {
    case "owner":
      // a WhatsApp message no template or open window lets go: it goes by hand, in support hours
      return `${name} ${is} waiting to be sent on WhatsApp by ${business || "us"}. ${OWNER_SENDS_WHEN}`;
    case "sent":
      return `${name} ${was} sent to ${where}.`;
    case "delivered":
      return `${name} ${was} delivered to ${where}.`;
    case "read":
      return `${name} ${was} delivered to ${where} and read.`;
    case "failed":
      return `${name} could not be sent to ${where}. Please contact us and we'll send ${plural ? "them" : "it"} another way.`;
    default:
      return `${name} ${is} queued to ${where}.`;
  }
}

/**
 * The login details not queued yet, promised where they will go (shared/login-channel.ts): the
 * shop's channel, or the owner's queue when that is e-mail and the payer gave no address.
 */
export function linePromise(sentTo: readonly SentTo[], shop: LoginChannel | undefined): string {
  const hasEmail = sentTo.some((s) => s.channel === "email");
  const channel = shop === "whatsapp" ? "whatsapp" : hasEmail ? "email" : "owner";
  if (channel === "owner") return `We'll send your streaming login details on WhatsApp as soon as your line is set up. ${OWNER_SENDS_WHEN}`;
  return `We'll send your streaming login details to ${place(channel, sentTo)} as soon as your line is set up.`;
}

/** A line per message of this kind (one per channel), or nothing when there is none. */
function MessageLines({ payment, kinds }: { payment: PaymentStatusView; kinds: readonly PaymentMessageKind[] }) {
  const { branding } = useBranding();
  const messages = (payment.outcome.messages ?? []).filter((m) => kinds.includes(m.kind));
  return (
    <>
      {messages.map((m) => (
        <li key={`${m.kind}:${m.channel}`} data-message-state={m.state}>
          {messageText(m, payment.outcome.sent_to, branding.companyName)}
        </li>
      ))}
    </>
  );
}

const hasMessage = (payment: PaymentStatusView, kind: PaymentMessageKind) => (payment.outcome.messages ?? []).some((m) => m.kind === kind);

export function PaymentSuccessPage() {
  return <PaymentResult landing="success" />;
}

export function PaymentFailurePage() {
  return <PaymentResult landing="failure" />;
}

export function PaymentCancelPage() {
  return <PaymentResult landing="cancel" />;
}

function PaymentResult({ landing }: { landing: Landing }) {
  const [params] = useSearchParams();
  const ref = (params.get("ref") ?? "").trim();
  const payment = usePaymentStatus(ref);
  const notFound = payment.error instanceof ApiError && (payment.error.status === 404 || payment.error.status === 400);
  // The tab names what the page says, not only which page the provider chose.
  usePageTitle(
    !ref || (payment.isError && !notFound)
      ? "Payment status"
      : notFound
        ? "Payment not found"
        : payment.data
          ? headline(payment.data)
          : undefined,
  );

  if (!ref) return <NoReference landing={landing} />;
  if (payment.isPending) return <Checking />;
  if (payment.isError) {
    return notFound ? (
      <UnknownReference reference={ref} />
    ) : (
      <CouldNotCheck onRetry={() => void payment.refetch()} busy={payment.isFetching} />
    );
  }
  return <Outcome payment={payment.data} polling={payment.stillPolling} onCheckAgain={payment.keepChecking} busy={payment.isFetching} />;
}

/** A payment as its result page has it: still being checked, and how to check again. */
interface OutcomeProps {
  payment: PaymentStatusView;
  /** the page is still asking the server on its own */
  polling: boolean;
  onCheckAgain: () => void;
  busy: boolean;
}

function Outcome({ payment, polling, onCheckAgain, busy }: OutcomeProps) {
  const outcome = OUTCOME[payment.status] ?? OUTCOME.pending;
  const { Icon } = outcome;
  return (
    <NoticeFrame>
      <div className="flex flex-col items-center gap-4 text-center" data-payment-status={payment.status}>
        <span className={cn("flex size-16 items-center justify-center rounded-full", outcome.iconClass)}>
          <Icon aria-hidden="true" className={cn("size-8", payment.status === "pending" && polling && "motion-safe:animate-pulse")} />
        </span>
        <Badge variant={outcome.variant}>{outcome.badge}</Badge>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink">{headline(payment)}</h1>
      </div>

      <dl className="mt-8 grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 rounded-card border border-line bg-surface p-5 sm:p-6">
        <dt className="text-ink-muted">Amount</dt>
        <dd className="text-right text-xl font-bold text-ink tabular">{formatRand(payment.amount)}</dd>
        <dt className="text-ink-muted">{payment.credit_order ? "Bought" : "Package"}</dt>
        <dd className="text-right text-ink">{payment.credit_order ? credits(payment.credit_order.credits) : payment.package_name}</dd>
        <dt className="text-ink-muted">Reference</dt>
        <dd className="min-w-0 text-right font-mono text-sm break-all text-ink">{payment.external_transaction_id}</dd>
        {payment.paid_at ? (
          <>
            <dt className="text-ink-muted">Paid on</dt>
            <dd className="text-right text-ink tabular">{formatDateTime(payment.paid_at)} SAST</dd>
          </>
        ) : null}
      </dl>

      <div className="mt-8" aria-live="polite">
        <NextSteps payment={payment} polling={polling} onCheckAgain={onCheckAgain} busy={busy} />
      </div>
    </NoticeFrame>
  );
}

function NextSteps({ payment, polling, onCheckAgain, busy }: OutcomeProps) {
  const ref = payment.external_transaction_id;
  if (payment.credit_order && payment.status !== "pending") return <CreditOrderSteps payment={payment} />;
  if (payment.card_change && payment.status !== "pending") return <CardChangeSteps payment={payment} />;
  switch (payment.status) {
    case "paid":
      return <PaidSteps payment={payment} />;
    case "pending":
      return polling ? (
        <p className="flex items-center justify-center gap-3 text-center text-ink-muted">
          <RefreshCw aria-hidden="true" className="size-4 shrink-0 motion-safe:animate-spin" />
          This usually takes a few seconds. We check again every 3 seconds.
        </p>
      ) : (
        <Steps
          title="This is taking longer than usual"
          actions={
            <>
              <Button onClick={onCheckAgain} disabled={busy}>
                <RefreshCw aria-hidden="true" />
                Check again
              </Button>
              <WhatsAppButton text={`I paid for ${payment.package_name} (reference ${ref}) and it still shows as pending.`} />
              {payment.credit_order ? <PartnerPortalLink variant="outline" /> : null}
            </>
          }
        >
          <li>Please don't pay again. We confirm the payment as soon as the payment provider does.</li>
          <li>If you're unsure, send us the reference above and we'll check it for you.</li>
        </Steps>
      );
    case "failed":
    case "cancelled":
      return <CardNotPaid payment={payment} />;
    default:
      return (
        <Steps title="Questions about this payment?" actions={<WhatsAppButton text={`I have a question about payment ${ref}.`} />}>
          <li>Send us the reference above and we'll help.</li>
        </Steps>
      );
  }
}

/**
 * A card payment that failed or was cancelled: card again and, when the shop takes EFT, EFT side
 * by side with it: one tap shows the bank details and a reference for the same package (the
 * server makes it for the same payer). Without real bank details EFT is not mentioned at all.
 */
function CardNotPaid({ payment }: { payment: PaymentStatusView }) {
  const ref = payment.external_transaction_id;
  const failed = payment.status === "failed";
  const methods = usePaymentMethods();
  const eftInstead = usePayByEftInstead();
  const eft = methods?.eft ?? false;

  if (eftInstead.data) {
    return (
      <section aria-labelledby="eft-instead-heading" className="flex flex-col gap-4" data-testid="eft-instead">
        <h2 id="eft-instead-heading" className="text-lg font-semibold text-ink">
          Pay by EFT
        </h2>
        <EftDetails eft={eftInstead.data} afterPayment="We'll activate your account when the payment reflects." />
        <Actions>
          <WhatsAppButton text={`I'm paying ${payment.package_name} by EFT (reference ${eftInstead.data.reference}). I have a question.`} />
        </Actions>
      </section>
    );
  }

  const refusal = eftInstead.error instanceof ApiError && eftInstead.error.status > 0 ? eftInstead.error.message : null;
  return (
    <Steps
      title={failed ? "What you can do" : "Changed your mind?"}
      actions={
        <>
          <Link to={TRY_AGAIN} className={buttonClasses()}>
            <CreditCard aria-hidden="true" />
            {failed ? "Try again by card" : "Try again"}
          </Link>
          {eft ? (
            <Button variant="outline" disabled={eftInstead.isPending} onClick={() => eftInstead.mutate(ref)}>
              <Landmark aria-hidden="true" />
              {eftInstead.isPending ? "Getting EFT details..." : "Pay by EFT instead"}
            </Button>
          ) : null}
          <WhatsAppButton
            text={
              failed
                ? `my card payment for ${payment.package_name} (reference ${ref}) failed. I have a question.`
                : `I cancelled my card payment for ${payment.package_name} (reference ${ref}). I have a question.`
            }
          />
        </>
      }
    >
      <li>
        {failed
          ? "The payment didn't go through. You can try again with the same or another card."
          : "No payment was taken. Your package is still here whenever you're ready."}
      </li>
      {eft ? <li>Or pay by EFT instead: we show you our bank details and your reference right here.</li> : null}
      {methods && !eft ? <li>{EFT_CARD_ONLY_MESSAGE}</li> : null}
      {eftInstead.isError ? (
        <li role="alert" className="text-bad">
          {refusal ?? "We couldn't get the EFT details just now. Please try again."}
        </li>
      ) : null}
    </Steps>
  );
}

/** What the payment did, in the outcome's words only: nothing is promised that it does not say. */
function PaidSteps({ payment }: { payment: PaymentStatusView }) {
  const loginChannel = usePaymentMethods()?.loginChannel;
  const ref = payment.external_transaction_id;
  const { account, subscription_end: end, suspended }: PaymentOutcome = payment.outcome;
  const until = formatDate(end);
  const question = <WhatsAppButton text={`my payment ${ref} for ${payment.package_name} went through. I have a question.`} />;

  if (suspended) {
    return (
      <Steps
        title="What happens next"
        actions={<ContactButtons text={`I paid for ${payment.package_name} (reference ${ref}) and my account is suspended.`} />}
      >
        <li>Payment received. Your account is suspended, so please contact us to switch it back on.</li>
        {until ? <li>The time you paid for has been added: your subscription runs until {until}.</li> : null}
        <MessageLines payment={payment} kinds={["receipt"]} />
      </Steps>
    );
  }
  if (account === "created") {
    return (
      <Steps
        title="What happens next"
        actions={
          <>
            <Link to="/client/login" className={buttonClasses()}>
              Sign in to the client portal
            </Link>
            {question}
          </>
        }
      >
        {hasMessage(payment, "welcome") ? (
          <MessageLines payment={payment} kinds={["welcome"]} />
        ) : (
          <li>Your client portal account has been created. If its login doesn't reach you, please contact us.</li>
        )}
        {until ? <li>Your subscription runs until {until}.</li> : null}
        {hasMessage(payment, "credentials") ? (
          <MessageLines payment={payment} kinds={["credentials"]} />
        ) : (
          <li>{linePromise(payment.outcome.sent_to, loginChannel)}</li>
        )}
        <MessageLines payment={payment} kinds={["receipt"]} />
      </Steps>
    );
  }
  if (account === "renewed") {
    return (
      <Steps
        title="What happens next"
        actions={
          <>
            <Link to="/client" className={buttonClasses()}>
              Go to the client portal
            </Link>
            {question}
          </>
        }
      >
        <li>{until ? `Your subscription has been renewed until ${until}.` : "Your subscription has been renewed."}</li>
        <MessageLines payment={payment} kinds={["receipt"]} />
      </Steps>
    );
  }
  return (
    <Steps title="What happens next" actions={question}>
      <li>Payment received. The business will contact you to set up your account.</li>
      <li>Keep the reference above in case you need to ask us about this payment.</li>
      <MessageLines payment={payment} kinds={["receipt"]} />
    </Steps>
  );
}

const LANDING_WORDS: Record<Landing, string> = {
  success: "If you've just paid, send us a message and we'll check your payment for you.",
  failure: "If your payment didn't go through, you can simply try again.",
  cancel: "If you cancelled a payment, nothing was taken and you can try again any time.",
};

function NoReference({ landing }: { landing: Landing }) {
  return (
    <NoticePage Icon={SearchX} title="We couldn't tell which payment this is">
      <p>This link has no payment reference, so we can't show the payment's status. {LANDING_WORDS[landing]}</p>
      <Actions center>
        <Link to={TRY_AGAIN} className={buttonClasses()}>
          View packages
        </Link>
        <WhatsAppButton text="I'd like to check on a payment I made." />
      </Actions>
    </NoticePage>
  );
}

function UnknownReference({ reference }: { reference: string }) {
  return (
    <NoticePage Icon={SearchX} title="We couldn't find that payment">
      <p>
        There's no payment with the reference <span className="font-mono break-all text-ink">{reference}</span>. Check the link, or send us
        the reference and we'll look it up.
      </p>
      <Actions center>
        <WhatsAppButton text={`I can't find my payment with reference ${reference}.`} />
        <Link to={TRY_AGAIN} className={buttonClasses({ variant: "outline" })}>
          View packages
        </Link>
      </Actions>
    </NoticePage>
  );
}

function CouldNotCheck({ onRetry, busy }: { onRetry: () => void; busy: boolean }) {
  return (
    <NoticePage Icon={RefreshCw} title="We couldn't check your payment just now">
      <p>Please check your connection and try again. You don't need to pay again.</p>
      <Actions center>
        <Button onClick={onRetry} disabled={busy}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
        <WhatsAppButton text="I'd like to check on a payment I made." />
      </Actions>
    </NoticePage>
  );
}

function Checking() {
  return (
    <NoticeFrame>
      <div role="status" aria-busy="true" className="flex flex-col items-center gap-4">
        <Skeleton className="size-16 rounded-full" />
        <p className="text-ink-muted">Checking your payment…</p>
        <Skeleton className="mt-4 h-40 w-full rounded-card" />
      </div>
    </NoticeFrame>
  );
}
