// Which card mode the shop runs in: a real card provider (real money), the local TEST checkout, or
// none; the provider's words from the server's registry (GET /api/payment-providers).
// On the payments page always; on the overview only when it needs attention (`quietWhenLive`).
import { useQuery } from "@tanstack/react-query";
import { CircleCheck, CreditCard, TriangleAlert } from "lucide-react";
import type { PaymentMethods, PaymentProviderInfo } from "@/shared/api";
import { cn } from "@/web/lib/cn";
import { paymentMethodsQueryOptions } from "@/web/lib/queries/payment-methods";
import { findProvider, usePaymentProviders } from "@/web/lib/queries/payment-providers";

type CardMode = "live" | "test" | "off";

const LOOKS = {
  live: { icon: CircleCheck, className: "border-ok/40 bg-ok/10", iconClass: "text-ok" },
  test: { icon: TriangleAlert, className: "border-warn/50 bg-warn/10", iconClass: "text-warn" },
  off: { icon: CreditCard, className: "border-bad/40 bg-bad/10", iconClass: "text-bad" },
} as const;

/** Live when the card provider takes real money, test for the test checkout, else off. */
export function cardMode(methods: PaymentMethods, providers: readonly PaymentProviderInfo[]): CardMode {
  if (methods.card === "off") return "off";
  return findProvider(providers, methods.card)?.test ? "test" : "live";
}

export function paymentModeText(methods: PaymentMethods, providers: readonly PaymentProviderInfo[]): { title: string; detail: string } {
  // the providers the owner turned on beside the card provider (their keys)
  const names = (methods.providers ?? []).map((p) => p.name);
  const others = names.length ? ` Also on: ${names.join(", ")}.` : "";
  const eft = methods.eft ? "EFT still works." : names.length ? "EFT is off." : "EFT is off too, so nobody can pay online.";
  const card = findProvider(providers, methods.card);
  switch (cardMode(methods, providers)) {
    case "live":
      return {
        title: `Card payments: ${card?.sentenceName ?? methods.card} (live)`,
        detail: (methods.eft ? "EFT is on too." : "EFT is off.") + others,
      };
    case "test":
      return {
        title: `Card payments: TEST checkout (${methods.card}) — no real money is taken`,
        detail: `Every card payment is a test. ${eft}${others}`,
      };
    default: {
      // each card provider's way on: the real one's keys first, then the test checkout's switch
      const ways = providers.filter((p) => p.role === "card").map((p) => p.turnOn);
      return { title: "Card payments: off", detail: `— ${ways.join(", or ")}. ${eft}${others}` };
    }
  }
}

export function PaymentModeBanner({ quietWhenLive, className }: { quietWhenLive?: boolean; className?: string }) {
  // Read as it is (the shared hook assumes card payments are on when the read fails).
  const { data } = useQuery(paymentMethodsQueryOptions());
  const providers = usePaymentProviders();
  if (!data || !providers) return null;
  const mode = cardMode(data, providers);
  if (quietWhenLive && mode === "live") return null;
  const { title, detail } = paymentModeText(data, providers);
  const { icon: Icon, className: look, iconClass } = LOOKS[mode];
  return (
    <div
      role={mode === "live" ? "status" : "alert"}
      data-testid="payment-mode"
      data-mode={data.card}
      className={cn("flex items-start gap-3 rounded-card border px-4 py-3 text-sm", look, className)}
    >
      <Icon aria-hidden="true" className={cn("mt-0.5 size-5 shrink-0", iconClass)} />
      <p className="min-w-0 text-ink-muted">
        <span className="font-semibold text-ink">{title}</span>
        <span className="block sm:inline"> {detail}</span>
      </p>
    </div>
  );
}
