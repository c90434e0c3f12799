import { PageIntro } from "@/web/components/ui/page-intro";

/** /client/specials: offers for existing clients. */
export function ClientSpecialsPage() {
  return (
    <PageIntro
      eyebrow="Client Portal"
      title="Specials for clients"
      description="Renewal deals and upgrades for existing clients, at the prices you see here."
      links={[
        { to: "/client", label: "Back to your portal" },
        { to: "/pricing", label: "All packages" },
      ]}
    />
  );
}
