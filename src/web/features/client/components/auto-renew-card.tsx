// "Renew automatically" on the client's plan (issue 44): whether their card is charged for each
// renewal, which card, and the switch that turns it off at once (and tells the card provider).
// It is turned on only at a card payment (the review step's tick), where the consent is given.
// While on, "Use another card" leaves for the provider's card-saving checkout (no charge), where
// the provider's definition can keep a new card that way (the view's canChangeCard).
import { CreditCard, RefreshCw } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { toast } from "@/web/lib/toast";
import { useAutoRenew, useStopAutoRenew } from "../api/auto-renew";
import { useChangeAutoRenewCard } from "../api/change-auto-renew-card";
import { goToCheckout } from "./checkout";
import { errorMessage } from "./server-errors";
import { SettingSwitch } from "./setting-switch";

export function AutoRenewCard() {
  const state = useAutoRenew();
  const stop = useStopAutoRenew();
  const change = useChangeAutoRenewCard();
  // Never chosen: nothing to show (the review step offers it at the next card payment).
  if (!state.data) return null;
  const on = state.data.enabled;

  const turnOff = () =>
    stop.mutate(undefined, {
      onSuccess: () => toast.success("Automatic renewal off", { description: "We won't charge your card again." }),
      onError: (error) => toast.error("Save Failed", { description: errorMessage(error) }),
    });

  const useAnotherCard = () =>
    change.mutate(undefined, {
      onSuccess: (started) => goToCheckout(started.url),
      onError: (error) => toast.error("Card Change Failed", { description: errorMessage(error) }),
    });

  return (
    <Card className="p-5 sm:p-6" aria-labelledby="auto-renew-heading">
      <h2 id="auto-renew-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <RefreshCw aria-hidden="true" className="size-5 text-accent-ink" />
        Automatic renewal
      </h2>
      <SettingSwitch
        label="Renew automatically"
        on={on}
        disabled={!on || stop.isPending}
        onSwitch={(next) => {
          if (!next) turnOff();
        }}
        status={
          on
            ? `On, ${state.data.card}. ${state.data.consent}`
            : "Off. To turn it on again, tick 'Renew automatically with this card' when you next pay by card."
        }
      />
      {on && state.data.canChangeCard ? (
        <Button type="button" variant="outline" className="mt-4 min-h-11" disabled={change.isPending} onClick={useAnotherCard}>
          <CreditCard aria-hidden="true" className="size-4" />
          {change.isPending ? "Opening the card page…" : "Use another card"}
        </Button>
      ) : null}
    </Card>
  );
}
