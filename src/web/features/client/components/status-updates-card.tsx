// "Status updates" on the account page (issue 13 item 5): the client's own subscription to
// outages and planned maintenance, on their preferred channel, no confirmation needed. One
// switch that saves as it changes.
import { Activity } from "lucide-react";
import { Link } from "react-router";
import { Card } from "@/web/components/ui/card";
import { toast } from "@/web/lib/toast";
import { useSetStatusUpdates, useStatusUpdates } from "../api/status-updates";
import { errorMessage } from "./server-errors";
import { SettingSwitch } from "./setting-switch";

const CHANNEL_WORDS = { whatsapp: "on WhatsApp", email: "by e-mail" } as const;

export function StatusUpdatesCard() {
  const state = useStatusUpdates();
  const change = useSetStatusUpdates();
  const on = state.data?.subscribed ?? false;
  const channel = state.data?.channel ?? null;

  const toggle = (next: boolean) =>
    change.mutate(next, {
      onSuccess: (answer) =>
        toast.success(answer.data.subscribed ? "Status updates on" : "Status updates off", { description: answer.message }),
      onError: (error) => toast.error("Save Failed", { description: errorMessage(error) }),
    });

  return (
    <Card className="p-5 sm:p-6" aria-labelledby="status-updates-heading">
      <h2 id="status-updates-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Activity aria-hidden="true" className="size-5 text-accent-ink" />
        Status updates
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        A message when our service has a problem, when it's fixed, and before planned maintenance. Also on our{" "}
        <Link to="/status" className="text-accent-ink underline">
          status page
        </Link>
        .
      </p>
      {state.isError ? (
        <p className="mt-4 text-sm text-bad" role="alert">
          We couldn't load this just now. Please try again in a minute.
        </p>
      ) : (
        <SettingSwitch
          label="Send me status updates"
          on={on}
          disabled={state.isPending || change.isPending || (!on && channel === null)}
          onSwitch={toggle}
          status={
            state.isPending
              ? "Loading..."
              : channel === null
                ? "Add an e-mail address or WhatsApp number above first, so we can reach you."
                : on
                  ? `You get them ${CHANNEL_WORDS[channel]}, your preferred channel. Switch off to stop.`
                  : `Off. Switch on to get them ${CHANNEL_WORDS[channel]}.`
          }
        />
      )}
    </Card>
  );
}
