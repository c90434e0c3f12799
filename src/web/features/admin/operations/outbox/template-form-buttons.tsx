// The foot of an inline template form (the words of a message, a Meta template's settings): Save,
// which says while it runs that it is saving, and Cancel; both wait while it runs. A form may add
// a button of its own after them (Remove).
import type { ReactNode } from "react";
import { Button } from "@/web/components/ui/button";

export function TemplateFormButtons({ busy, onCancel, children }: { busy: boolean; onCancel: () => void; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" size="sm" disabled={busy}>
        {busy ? "Saving..." : "Save"}
      </Button>
      <Button variant="outline" size="sm" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      {children}
    </div>
  );
}
