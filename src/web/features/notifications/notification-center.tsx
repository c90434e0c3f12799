// Mounted once by the public layout. Small on purpose (it ships with every page): the prompt
// and the alert listener load only when this visit needs them.
import { lazy, Suspense, useEffect, useState } from "react";
import { NOTIFICATION_PROMPT_DELAY_MS } from "@/shared/constants";
import { type NotificationPlan, notificationPlanForThisLoad } from "./first-run";

const NotificationPrompt = lazy(() => import("./notification-prompt").then((m) => ({ default: m.NotificationPrompt })));
const LiveAlerts = lazy(() => import("./live-alerts").then((m) => ({ default: m.LiveAlerts })));

export function NotificationCenter() {
  const [stage, setStage] = useState<NotificationPlan>("none");

  useEffect(() => {
    const plan = notificationPlanForThisLoad();
    if (plan === "listen") setStage("listen");
    if (plan !== "prompt") return;
    const timer = setTimeout(() => setStage("prompt"), NOTIFICATION_PROMPT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  if (stage === "none") return null;
  return (
    <Suspense fallback={null}>
      {stage === "prompt" ? <NotificationPrompt onDone={(granted) => setStage(granted ? "listen" : "none")} /> : <LiveAlerts />}
    </Suspense>
  );
}
