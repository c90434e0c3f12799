// /pay/:token: the one-tap pay link from a trial-ending, trial-ended or renewal message (issue 27
// item 4). No sign-in: the signed link says who pays and for which package. The page shows
// "Pay R… for <package>" and a button per way to pay; a tap starts the payment (the portal
// renewal's path on the server) and goes to the provider's checkout, or shows the EFT details.
// A tap twice, or a retry, answers the same payment. A link that is not ours, has expired, or whose
// account or package is gone shows why, and what to do instead.
import { useQuery } from "@tanstack/react-query";
import { Banknote, Clock, CreditCard, LinkIcon, type LucideIcon, UserX, Wallet } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link, useParams } from "react-router";
import type { HostedPaymentMethod, PaymentMethods, PaymentProviderInfo } from "@/shared/api";
import { EFT_CARD_ONLY_MESSAGE } from "@/shared/constants";
import { formatDate } from "@/shared/dates";
import { formatRand } from "@/shared/money";
import type { PayLinkPayResponse, PayLinkView } from "@/shared/pay-link-schemas";
import { EftDetails } from "@/web/components/eft-details";
import { NoticeFrame, NoticePage } from "@/web/components/notice-page";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { WhatsAppUsButton } from "@/web/components/whatsapp-us-button";
import { ApiError } from "@/web/lib/api";
import { usePageTitle } from "@/web/lib/page-title";
import { findProvider, paymentProvidersQueryOptions } from "@/web/lib/queries/payment-providers";
import { usePayByLink, usePayLink } from "./api/pay-link";

type Method = "card" | "eft" | HostedPaymentMethod;

/** Leaves for the provider's checkout in the same tab (phones block pop-ups opened after a wait). */
function goToCheckout(url: string): void {
  window.location.assign(url);
}

/** The ways to pay the shop has on, in the order the portal offers them. */
function offeredMethods(
  methods: PaymentMethods,
  providers: readonly PaymentProviderInfo[] | undefined,
): { method: Method; label: string; Icon: LucideIcon }[] {
  const testCheckout = findProvider(providers, methods.card)?.test === true;
  return [
    ...(methods.card !== "off"
      ? [{ method: "card" as const, label: testCheckout ? "Pay by card (test checkout)" : "Pay by card", Icon: CreditCard }]
      : []),
    ...(methods.providers ?? []).map((p) => ({ method: p.id, label: `Pay with ${p.name}`, Icon: Wallet })),
    ...(methods.eft ? [{ method: "eft" as const, label: "Pay by EFT", Icon: Banknote }] : []),
  ];
}

export function PayLinkPage() {
  const { token = "" } = useParams();
  const link = usePayLink(token);
  // the card button says when it is the test checkout: its words are read with the link (a failed read only loses that note)
  const providers = useQuery(paymentProvidersQueryOptions());
  const refused = link.error instanceof ApiError && link.error.status > 0 ? link.error : null;
  usePageTitle(link.data ? `Pay for ${link.data.packageName}` : refused ? "Pay link not working" : undefined);

  if (link.isPending || providers.isPending) return <Loading />;
  if (link.isError) {
    return refused ? (
      <Refused error={refused} />
    ) : (
      <NoticePage Icon={Clock} title="We couldn't open your pay link just now">
        <p>Please check your connection and try again. Nothing has been paid.</p>
        <Actions>
          <Button onClick={() => void link.refetch()} disabled={link.isFetching}>
            Try again
          </Button>
          <WhatsAppUsButton text="my pay link won't open." />
        </Actions>
      </NoticePage>
    );
  }
  return <PayPanel token={token} view={link.data} providers={providers.data} />;
}

function PayPanel({ token, view, providers }: { token: string; view: PayLinkView; providers?: readonly PaymentProviderInfo[] }) {
  const pay = usePayByLink(token);
  const [chosen, setChosen] = useState<Method | null>(null);
  const [eft, setEft] = useState<Extract<PayLinkPayResponse, { method: "eft" }> | null>(null);
  const [leaving, setLeaving] = useState(false);
  const offered = offeredMethods(view.methods, providers);
  const amount = formatRand(view.price);

  const start = async (method: Method) => {
    setChosen(method);
    try {
      const answer = await pay.mutateAsync({ method });
      if (answer.method === "eft") {
        setEft(answer);
      } else {
        setLeaving(true);
        goToCheckout(answer.paylinkUrl);
      }
    } catch {
      // shown below, in the server's words
    }
  };
  const failure = pay.error instanceof ApiError && pay.error.status > 0 ? pay.error.message : pay.error ? pay.error.message : null;

  return (
    <NoticeFrame>
      <p className="text-sm font-medium text-ink-muted">
        {view.firstName ? `Hi ${view.firstName}, ` : ""}this is your payment to {view.business}.
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance text-ink">
        Pay <span className="tabular">{amount}</span> for {view.packageName}
      </h1>
      {view.listPrice ? (
        <p className="mt-2 text-ink-muted">
          Special price: <s className="tabular">{formatRand(view.listPrice)}</s>{" "}
          <span className="font-semibold text-special">{amount}</span> today.
        </p>
      ) : null}

      {eft ? (
        <section aria-labelledby="eft-heading" className="mt-8 flex flex-col gap-4" data-testid="pay-link-eft">
          <h2 id="eft-heading" className="text-lg font-semibold text-ink">
            Pay by EFT
          </h2>
          <EftDetails
            eft={eft}
            afterPayment={
              view.term.running
                ? `Your line keeps running; once we see your payment it ends on ${formatDate(view.term.newEnd)} instead of ${formatDate(view.term.endsAt)}, with the same login details.`
                : "Your line switches on as soon as we see your payment, with the same login details."
            }
          />
          <Actions>
            <WhatsAppUsButton text={`I'm paying ${view.packageName} by EFT (reference ${eft.reference}). I have a question.`} />
          </Actions>
        </section>
      ) : (
        <section aria-labelledby="methods-heading" className="mt-8 flex flex-col gap-3">
          <h2 id="methods-heading" className="text-lg font-semibold text-ink">
            How would you like to pay?
          </h2>
          {offered.length === 0 ? (
            <p className="rounded-xl border border-line bg-surface-raised px-4 py-3 text-sm text-ink-muted" role="status">
              Paying online isn't available just now. Please contact us and we'll help you pay.
            </p>
          ) : null}
          {offered.map(({ method, label, Icon }) => (
            <Button
              key={method}
              size="lg"
              variant={method === offered[0]?.method ? "primary" : "outline"}
              className="w-full justify-center"
              disabled={pay.isPending || leaving}
              onClick={() => void start(method)}
              data-method={method}
            >
              <Icon aria-hidden="true" />
              {(pay.isPending || leaving) && chosen === method
                ? method === "eft"
                  ? "Getting the EFT details..."
                  : "Taking you to the payment page..."
                : label}
            </Button>
          ))}
          {view.methods.card !== "off" && !view.methods.eft ? <p className="text-sm text-ink-muted">{EFT_CARD_ONLY_MESSAGE}</p> : null}
          {failure ? (
            <p role="alert" className="rounded-xl border border-bad/40 bg-bad/10 px-4 py-3 text-sm text-ink">
              {failure}
            </p>
          ) : null}
          <p className="mt-2 text-sm text-ink-muted" data-testid="pay-link-term">
            No sign-in needed. Your login details stay the same,{" "}
            {view.term.running
              ? `and your line keeps running: it ends ${formatDate(view.term.endsAt)} → ${formatDate(view.term.newEnd)} once your payment is confirmed.`
              : "and your line switches on as soon as your payment is confirmed."}{" "}
            This link works until {formatDate(view.expiresAt)}.
          </p>
        </section>
      )}
    </NoticeFrame>
  );
}

// Short titles: the server's message under them says the rest.
const REFUSALS: Record<string, { title: string; Icon: LucideIcon }> = {
  expired: { title: "Pay link expired", Icon: Clock },
  gone: { title: "Pay link no longer works", Icon: UserX },
  package_gone: { title: "Package no longer available", Icon: LinkIcon },
  package_unavailable: { title: "Package not available yet", Icon: LinkIcon },
  suspended: { title: "Account suspended", Icon: UserX },
};

/** The server's refusal in its own words, with what to do instead. */
function Refused({ error }: { error: ApiError }) {
  const { title, Icon } = REFUSALS[error.code] ?? { title: "We can't open this pay link", Icon: LinkIcon };
  const canSignIn = error.code === "expired" || error.code === "package_gone";
  return (
    <NoticePage Icon={Icon} title={title}>
      <p data-testid="pay-link-refusal">{error.message}</p>
      <Actions>
        {canSignIn ? (
          <Link to="/client?renew=1" className={buttonClasses()}>
            Sign in to pay
          </Link>
        ) : null}
        <WhatsAppUsButton text="my pay link isn't working. Please help me pay." />
      </Actions>
    </NoticePage>
  );
}

function Actions({ children }: { children: ReactNode }) {
  return <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-center">{children}</div>;
}

function Loading() {
  return (
    <NoticeFrame>
      <div role="status" aria-busy="true" className="flex flex-col gap-4">
        <p className="text-ink-muted">Opening your pay link…</p>
        <Skeleton className="h-10 w-3/4" />
        <Skeleton className="mt-4 h-12 w-full rounded-xl" />
        <Skeleton className="h-12 w-full rounded-xl" />
      </div>
    </NoticeFrame>
  );
}
