// /how-to-use (spec §2: a full page for the landing's how-to-use section): the three steps, then
// 'Supported Apps & Devices' with the featured app cards and the download dialog. The two come
// from different features (how-to-use, downloads), so the page that shows them together is composed here.
import { SupportedApps } from "@/web/features/downloads/supported-apps";
import { HowToUsePage } from "@/web/features/how-to-use/how-to-use-page";

export function HowToUseRoute() {
  return <HowToUsePage apps={<SupportedApps headingLevel={2} />} />;
}
