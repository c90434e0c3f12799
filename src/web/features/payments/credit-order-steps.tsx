// The result page's next steps for a partner's credit order (issue 45).
import { Link } from "react-router";
import type { PaymentStatusView } from "@/shared/api";
import { buttonClasses } from "@/web/components/ui/button";
import { Steps, WhatsAppButton } from "./result-steps";

export const credits = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;

export function PartnerPortalLink({ variant }: { variant?: "outline" }) {
  return (
    <Link to="/partner" className={buttonClasses(variant ? { variant } : {})}>
      Go to your partner portal
    </Link>
  );
}

/**
 * A partner's credit order (issue 45): it buys credits for their partner balance, so the page
 * says where those credits stand and leads back to the partner portal; no account, term or
 * package is promised, and a payment that did not go through is bought again from the portal.
 */
export function CreditOrderSteps({ payment }: { payment: PaymentStatusView }) {
  const order = payment.credit_order as NonNullable<PaymentStatusView["credit_order"]>;
  const ref = payment.external_transaction_id;
  const what = credits(order.credits);
  if (payment.status === "failed" || payment.status === "cancelled") {
    return (
      <Steps
        title={payment.status === "failed" ? "What you can do" : "Changed your mind?"}
        actions={
          <>
            <PartnerPortalLink />
            <WhatsAppButton text={`my payment for ${what} (reference ${ref}) did not go through. I have a question.`} />
          </>
        }
      >
        <li>
          {payment.status === "failed" ? "The payment didn't go through" : "No payment was taken"}, so no credits were bought. You can buy
          them again from your partner portal, by card or EFT.
        </li>
      </Steps>
    );
  }
  if (payment.status !== "paid") {
    return (
      <Steps
        title="Questions about this payment?"
        actions={
          <>
            <PartnerPortalLink />
            <WhatsAppButton text={`I have a question about payment ${ref} for ${what}.`} />
          </>
        }
      >
        <li>Send us the reference above and we'll help.</li>
      </Steps>
    );
  }
  const balance = order.balance !== null ? ` You now have ${credits(order.balance)}.` : "";
  const words =
    order.status === "delivered"
      ? `Payment received. ${what} ${order.credits === 1 ? "is" : "are"} on your balance.${balance}`
      : order.status === "paid"
        ? `Payment received. ${what} ${order.credits === 1 ? "is" : "are"} on ${order.credits === 1 ? "its" : "their"} way to your balance; we e-mail you when ${order.credits === 1 ? "it is" : "they are"} in.`
        : `Payment received. ${what} ${order.credits === 1 ? "is" : "are"} not on your balance yet: the business has been told and will move ${order.credits === 1 ? "it" : "them"} to you. You don't need to pay again.`;
  return (
    <Steps
      title="What happens next"
      actions={
        <>
          <PartnerPortalLink />
          <WhatsAppButton text={`my payment ${ref} for ${what} went through. I have a question.`} />
        </>
      }
    >
      <li>{words}</li>
      <li>Your tax invoice is e-mailed to you with your receipt.</li>
    </Steps>
  );
}
