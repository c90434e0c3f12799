// Help for this client's own setup: the setup guide and technical support, opened at their device.
import { BookOpen, LifeBuoy, Wrench } from "lucide-react";
import { HelpLinks } from "@/web/components/help-links";
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
      <HelpLinks links={links} look="inset" className="mt-4" />
    </Card>
  );
}
