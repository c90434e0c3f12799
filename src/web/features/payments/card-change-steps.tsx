// The result page's words for a client's change of the card their automatic renewals charge (issue
// 44, "Use another card"): a card-saving checkout charges nothing and adds no time, so the page
// speaks of the card only, and leads back to the client's account.
import { Link } from "react-router";
import type { PaymentStatusView } from "@/shared/api";
import { buttonClasses } from "@/web/components/ui/button";
import { Steps, WhatsAppButton } from "./result-steps";

type CardChange = NonNullable<PaymentStatusView["card_change"]>;

/** The heading of a card change's result page. */
export function cardChangeHeadline(payment: PaymentStatusView, change: CardChange): string | null {
  if (payment.status === "pending") return null;
  if (payment.status === "paid" && change.status === "done") return "Your new card is saved";
  if (payment.status === "paid" && change.status === "pending") return "Saving your new card";
  return "Your card was not changed";
}

function AccountLink() {
  return (
    <Link to="/client" className={buttonClasses()}>
      Go to your account
    </Link>
  );
}

export function CardChangeSteps({ payment }: { payment: PaymentStatusView }) {
  const change = payment.card_change as CardChange;
  const ref = payment.external_transaction_id;
  const question = <WhatsAppButton text={`I have a question about my card change (reference ${ref}).`} />;
  if (payment.status === "paid" && change.status === "done") {
    return (
      <Steps
        title="What happens next"
        actions={
          <>
            <AccountLink />
            {question}
          </>
        }
      >
        <li>Nothing was charged. Your next automatic renewal goes on this card; the previous one is no longer used.</li>
        <li>You'll get a message confirming the change. You can turn automatic renewal off in your account at any time.</li>
      </Steps>
    );
  }
  if (payment.status === "paid" && change.status === "pending") {
    return (
      <Steps title="Almost done" actions={<AccountLink />}>
        <li>Nothing was charged. Your card is being saved: your account shows it as soon as it is.</li>
      </Steps>
    );
  }
  return (
    <Steps
      title="Nothing changed"
      actions={
        <>
          <AccountLink />
          {question}
        </>
      }
    >
      <li>
        {payment.status === "paid"
          ? "The new card was not kept (automatic renewal was turned off meanwhile, or no card came back)."
          : "The card was not saved."}{" "}
        Nothing was charged, and your automatic renewals still use the card you had.
      </li>
    </Steps>
  );
}
