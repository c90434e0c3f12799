// What the owner sees once the dashboard has made a client (or renewed a returning one): a tick
// and who, what happens next, and the way to their page.
import { CircleCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";

export function ClientMade({
  clientId,
  title,
  description,
  onDone,
  children,
}: {
  clientId: string;
  title: string;
  description: string;
  onDone: () => void;
  /** where their link was queued, and what else they should know */
  children: ReactNode;
}) {
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <CircleCheck aria-hidden="true" className="size-6 text-ok" />
          {title}
        </DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {children}
      <DialogFooter>
        <Link to={`/admin/client/${clientId}`} className={buttonClasses({ variant: "outline" })} onClick={onDone}>
          Open client
        </Link>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </>
  );
}
