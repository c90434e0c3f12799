import type { Ref, TextareaHTMLAttributes } from "react";
import { cn } from "@/web/lib/cn";
import { fieldClasses } from "./input";

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  ref?: Ref<HTMLTextAreaElement>;
}

export function Textarea({ className, rows = 4, ...props }: TextareaProps) {
  return <textarea rows={rows} className={cn(fieldClasses, "py-3", className)} {...props} />;
}
