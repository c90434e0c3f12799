import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "@/web/lib/toast";
import { Button, type ButtonProps } from "./button";

/** Copies `value` to the clipboard; `label` names what is copied (for the button's accessible name). */
export function CopyButton({ value, label, ...props }: { value: string; label: string } & Omit<ButtonProps, "onClick" | "value">) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success("Copied", { description: `${label} copied to the clipboard.` });
    } catch {
      toast.error("Copy failed", { description: "Select the text and copy it by hand." });
    }
  };

  return (
    <Button variant="outline" size="sm" aria-label={`Copy ${label.toLowerCase()}`} onClick={copy} {...props}>
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}
