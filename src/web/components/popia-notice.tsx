// The POPIA notice (Protection of Personal Information Act, s18) beside every form that
// collects personal details: what is collected, why, which parts are required, and where the
// privacy policy is. Short on purpose: people read two lines, not a paragraph.
import { ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { cn } from "@/web/lib/cn";

export interface PopiaNoticeProps {
  /** why the details are collected, finishing "We use them to …", e.g. "set up your order and contact you about it" */
  purpose: string;
  /** what is collected, e.g. "your name, e-mail address and WhatsApp number" */
  collected?: string;
  /** which details are required (a full sentence); by default the starred fields */
  required?: string;
  className?: string;
}

export function PopiaNotice({
  purpose,
  collected = "the details you enter here",
  required = "Fields marked * are needed to help you; the rest are optional.",
  className,
}: PopiaNoticeProps) {
  return (
    <div className={cn("flex gap-3 rounded-xl bg-surface-raised p-4 text-sm text-ink-muted ring-1 ring-line", className)}>
      <ShieldCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ok" />
      <p>
        <span className="font-semibold text-ink">Your privacy: </span>
        We collect {collected} to {purpose}, and use them for nothing else unless you agree to it. {required} You may ask to see, correct or
        delete your details at any time. Read our{" "}
        <Link to="/privacy-policy" className="font-medium text-accent-ink underline underline-offset-2 hover:text-ink">
          Privacy Policy
        </Link>
        .
      </p>
    </div>
  );
}
