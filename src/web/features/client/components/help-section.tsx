// Help for this client's own setup: the setup guide and technical support, opened at their device.
import { BookOpen, LifeBuoy, Wrench } from "lucide-react";
import { Link } from "react-router";
import { Card } from "@/web/components/ui/card";

export function HelpSection({ device, deviceLabel }: { device: string; deviceLabel: string }) {
  const query = device ? `?device=${encodeURIComponent(device)}` : "";
  const links = [
    {
      to: `/setup-guide${query}`,
      icon: BookOpen,
      title: deviceLabel ? `Set up your ${deviceLabel}` : "Setup guide",
      text: "Step by step, from installing the app to your first channel.",
    },
    {
      to: `/technical-support${query}`,
      icon: Wrench,
      title: "Something not working?",
      text: "Quick checks for buffering, sign-in and missing channels.",
    },
  ];
  return (
    <Card className="p-5 sm:p-6" aria-labelledby="help-heading">
      <h2 id="help-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <LifeBuoy aria-hidden="true" className="size-5 text-accent-ink" />
        Help
      </h2>
      <ul className="mt-4 flex flex-col gap-3">
        {links.map(({ to, icon: Icon, title, text }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex min-h-14 items-start gap-3 rounded-xl border border-line bg-surface-raised p-4 transition-colors hover:border-line-strong"
            >
              <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-ink" />
              <span className="flex flex-col">
                <span className="font-semibold text-ink">{title}</span>
                <span className="text-sm text-ink-muted">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
