// Which card mode the shop runs in: iKhokha (real money), the local TEST checkout, or none.
// On the payments page always; on the overview only when it needs attention (`quietWhenLive`).
import { useQuery } from "@tanstack/react-query";
import { CircleCheck, CreditCard, TriangleAlert } from "lucide-react";
import type { PaymentMethods } from "@/shared/api";
import { cn } from "@/web/lib/cn";
import { paymentMethodsQueryOptions } from "@/web/lib/queries/payment-methods";

const LOOKS = {
  ikhokha: { icon: CircleCheck, className: "border-ok/40 bg-ok/10" },
  sandbox: { icon: TriangleAlert, className: "border-warn/50 bg-warn/10" },
  off: { icon: CreditCard, className: "border-bad/40 bg-bad/10" },
} as const;

export function paymentModeText(methods: PaymentMethods): { title: string; detail: string } {
  // PayFast, Ozow, Yoco: the providers the owner turned on beside the card provider (their keys).
  const names = (methods.providers ?? []).map((p) => p.name);
  const others = names.length ? ` Also on: ${names.join(", ")}.` : "";
  const eft = methods.eft ? "EFT still works." : names.length ? "EFT is off." : "EFT is off too, so nobody can pay online.";
  switch (methods.card) {
    case "ikhokha":
      return { title: "Card payments: iKhokha (live)", detail: (methods.eft ? "EFT is on too." : "EFT is off.") + others };
    case "sandbox":
      return {
        title: "Card payments: TEST checkout (sandbox) — no real money is taken",
        detail: `Every card payment is a test. ${eft}${others}`,
      };
    default:
      return {
        title: "Card payments: off",
        detail: `— set IKHOKHA_APP_ID / IKHOKHA_APP_SECRET, or PAYMENTS_SANDBOX=on for a test shop. ${eft}${others}`,
      };
  }
}

export function PaymentModeBanner({ quietWhenLive, className }: { quietWhenLive?: boolean; className?: string }) {
  // Read as it is (the shared hook assumes card payments are on when the read fails).
  const { data } = useQuery(paymentMethodsQueryOptions());
  if (!data || (quietWhenLive && data.card === "ikhokha")) return null;
  const { title, detail } = paymentModeText(data);
  const { icon: Icon, className: look } = LOOKS[data.card] ?? LOOKS.off;
  return (
    <div
      role={data.card === "ikhokha" ? "status" : "alert"}
      data-testid="payment-mode"
      data-mode={data.card}
      className={cn("flex items-start gap-3 rounded-card border px-4 py-3 text-sm", look, className)}
    >
      <Icon
        aria-hidden="true"
        className={cn("mt-0.5 size-5 shrink-0", data.card === "ikhokha" ? "text-ok" : data.card === "sandbox" ? "text-warn" : "text-bad")}
      />
      <p className="min-w-0 text-ink-muted">
        <span className="font-semibold text-ink">{title}</span>
        <span className="block sm:inline"> {detail}</span>
      </p>
    </div>
  );
}
