import { ArrowLeft } from "lucide-react";
import { Button } from "@/web/components/ui/button";

export function BackButton({ onBack, onClose, disabled }: { onBack?: () => void; onClose: () => void; disabled?: boolean }) {
  return onBack ? (
    <Button variant="ghost" onClick={onBack} disabled={disabled}>
      <ArrowLeft aria-hidden="true" />
      Back
    </Button>
  ) : (
    <Button variant="ghost" onClick={onClose} disabled={disabled}>
      Cancel
    </Button>
  );
}
