// The footer, below the fold on every page: its code arrives after the first paint, and it
// mounts after the first screen (components/deferred.tsx), holding its place until then.
import { Deferred } from "@/web/components/deferred";
import { SiteFooter } from "./site-footer";

export function DeferredFooter() {
  return (
    <Deferred placeholder={(ref) => <div ref={ref} className="min-h-96" />}>
      <SiteFooter />
    </Deferred>
  );
}
