import { useEffect, useRef } from "react";
import type { EftResponse } from "@/shared/api";
import type { PlanViewModel } from "@/shared/pricing";
import { EftDetails } from "@/web/components/eft-details";
import { Button } from "@/web/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { PAY_REVIEW_MESSAGES } from "./pay-review-model";

/** The EFT details in place of the form. Focus moves here from the form's button, which is gone. */
export function EftStep({ eft, plan, onClose }: { eft: EftResponse; plan: PlanViewModel; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} className="focus:outline-none">
      <DialogHeader>
        <DialogTitle>Pay by EFT</DialogTitle>
        <DialogDescription>Your reference and our bank details for {plan.period}.</DialogDescription>
      </DialogHeader>
      <EftDetails eft={eft} afterPayment={PAY_REVIEW_MESSAGES.eftAfter} />
      <DialogFooter>
        <Button onClick={onClose}>Done</Button>
      </DialogFooter>
    </div>
  );
}
