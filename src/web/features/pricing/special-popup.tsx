// The special popup (spec §4): a banner of type 'special' as a dialog. Its Order Now button
// closes it and sends the visitor to the order form with the monthly plan chosen. Loaded on
// first use: it brings Radix with it.
import { Flame, ShoppingCart } from "lucide-react";
import type { Banner } from "@/shared/api";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";

export interface SpecialPopupProps {
  banner: Banner;
  onClose: () => void;
  onOrderNow: () => void;
}

export function SpecialPopup({ banner, onClose, onOrderNow }: SpecialPopupProps) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-md border-special/50 text-center" data-testid="special-popup">
        <DialogHeader className="items-center pr-0 text-center">
          <span className="mb-2 flex size-14 items-center justify-center rounded-full bg-special-soft text-special-ink ring-1 ring-special/40">
            <Flame aria-hidden="true" className="size-7" />
          </span>
          <p className="text-xs font-bold tracking-widest text-special-ink uppercase">Special offer</p>
          <DialogTitle className="text-2xl text-balance">{banner.title}</DialogTitle>
          <DialogDescription className="text-base text-pretty">{banner.content}</DialogDescription>
        </DialogHeader>
        <DialogFooter className="sm:justify-center">
          <Button variant="ghost" onClick={onClose}>
            Maybe later
          </Button>
          <Button variant="special" onClick={onOrderNow}>
            <ShoppingCart aria-hidden="true" />
            Order Now
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
