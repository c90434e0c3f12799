// Pay Now (spec §7, §8): create a card pay link for the package and open it in a new tab.
import { useCallback, useState } from "react";
import { toast } from "sonner";
import type { PlanViewModel } from "@/shared/pricing";
import { ApiError } from "@/web/lib/api";
import { createPaylink } from "./api/create-paylink";
import { closeTab, openPendingTab, sendTabTo } from "./new-tab";
import { canPayOnline } from "./plan-actions";

export const PAYMENT_MESSAGES = {
  successTitle: "Payment Link Created",
  success: "You've been redirected to complete your payment.",
  errorTitle: "Payment Error",
  failed: "Failed to create payment link. Please try again.",
  noLink: "Failed to create payment link",
  unexpected: "An unexpected error occurred. Please try again.",
} as const;

export interface PayNow {
  /** resolves true when the pay link was opened */
  pay: (plan: PlanViewModel) => Promise<boolean>;
  /** the package whose pay link is being made, if any */
  pendingPackageId: string | null;
}

export function usePayNow(): PayNow {
  const [pendingPackageId, setPending] = useState<string | null>(null);

  const pay = useCallback(async (plan: PlanViewModel): Promise<boolean> => {
    if (!canPayOnline(plan)) return false;
    // Opened inside the click, before any await, so that popup blockers let it through.
    const tab = openPendingTab("Preparing your secure payment page...");
    setPending(plan.packageId);
    try {
      const result = await createPaylink(plan.packageId);
      if (!result?.success || !result.paylinkUrl) {
        closeTab(tab);
        toast.error(PAYMENT_MESSAGES.errorTitle, { description: PAYMENT_MESSAGES.noLink });
        return false;
      }
      sendTabTo(tab, result.paylinkUrl);
      toast.success(PAYMENT_MESSAGES.successTitle, { description: PAYMENT_MESSAGES.success });
      return true;
    } catch (error) {
      closeTab(tab);
      if (error instanceof ApiError) {
        // The server said why (its message), or the request never arrived (status 0).
        const description = error.status > 0 && error.message ? error.message : PAYMENT_MESSAGES.failed;
        toast.error(PAYMENT_MESSAGES.errorTitle, { description });
      } else {
        console.error(error);
        toast.error(PAYMENT_MESSAGES.errorTitle, { description: PAYMENT_MESSAGES.unexpected });
      }
      return false;
    } finally {
      setPending(null);
    }
  }, []);

  return { pay, pendingPackageId };
}
