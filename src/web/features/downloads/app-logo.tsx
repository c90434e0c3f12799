import { AppWindow } from "lucide-react";
import type { Download } from "@/shared/api";
import { cn } from "@/web/lib/cn";

/** The app's logo (shipped with the product), or a neutral icon when it has none. */
export function AppLogo({ app, size = "md" }: { app: Pick<Download, "name" | "logo_url">; size?: "sm" | "md" | "lg" }) {
  const box = { sm: "size-11 rounded-xl", md: "size-14 rounded-2xl", lg: "size-20 rounded-3xl" }[size];
  const px = { sm: 44, md: 56, lg: 80 }[size];
  if (app.logo_url) {
    return (
      <img
        src={app.logo_url}
        alt=""
        width={px}
        height={px}
        loading="lazy"
        className={cn(box, "shrink-0 bg-surface-overlay object-contain ring-1 ring-line")}
      />
    );
  }
  return (
    <span className={cn(box, "flex shrink-0 items-center justify-center bg-surface-overlay text-ink-muted ring-1 ring-line")}>
      <AppWindow aria-hidden="true" className="size-1/2" />
    </span>
  );
}
