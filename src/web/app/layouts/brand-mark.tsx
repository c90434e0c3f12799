import { Skeleton } from "@/web/components/ui/skeleton";
import { useBranding } from "@/web/lib/queries/branding";
import { useImages } from "@/web/lib/queries/images";

/** The business's square icon and name, both from the API; a neutral placeholder while loading. */
export function BrandMark() {
  const { branding, isLoading } = useBranding();
  const { pwa_icon: icon } = useImages(["pwa_icon"]);
  return (
    <span className="flex min-w-0 items-center gap-2.5">
      <img src={icon.src} alt="" width={36} height={36} className="size-9 shrink-0 rounded-xl object-contain" decoding="async" />
      {isLoading ? (
        <Skeleton className="h-5 w-28" />
      ) : (
        <span className="truncate text-lg font-bold tracking-tight text-ink">{branding.companyName}</span>
      )}
    </span>
  );
}
