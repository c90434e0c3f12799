// What each dialog about one client (edit, grant time, reset password) is given by the client's page.
import type { AdminClient } from "@/shared/business-schemas";

export interface ClientDialogProps {
  client: AdminClient;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}
