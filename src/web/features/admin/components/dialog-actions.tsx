// The foot of a dashboard form dialog: Cancel, and the submit button that says what it does and,
// while it runs, that it is running ('Saving...'); both wait while it runs.
import { Button } from "@/web/components/ui/button";
import { DialogFooter } from "@/web/components/ui/dialog";

export function DialogActions({
  onCancel,
  busy,
  submit,
  busyLabel,
}: {
  onCancel: () => void;
  busy: boolean;
  /** the submit button's words ('Save changes') */
  submit: string;
  /** its words while it runs ('Saving...') */
  busyLabel: string;
}) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" disabled={busy}>
        {busy ? busyLabel : submit}
      </Button>
    </DialogFooter>
  );
}
