// What a visitor shares after the test (spec §7: the measurements, the assessment and the
// time), and the figures as the card shows them. The share goes to whoever the visitor picks
// in WhatsApp, so the link names no number: https://wa.me/?text=…
import { formatDateTime } from "@/shared/dates";
import { READINESS_LABELS, type StreamTestResult } from "@/shared/readiness";
import { WHATSAPP_BASE_URL } from "@/shared/whatsapp";

/** '87.3' below 100 Mbps, '412' from 100 up (a decimal there is noise). */
export function formatMbps(mbps: number): string {
  if (!Number.isFinite(mbps)) return "—";
  return mbps >= 100 ? String(Math.round(mbps)) : String(Math.round(mbps * 10) / 10);
}

/**
 * Up to one decimal ('54', '29.7'): the figure shown is the figure judged, so a jitter of
 * 29.7 ms (under the 30 ms target) never reads as '30'.
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  return String(Math.round(ms * 10) / 10);
}

export function formatPercent(percent: number): string {
  if (!Number.isFinite(percent)) return "—";
  return String(Math.round(percent * 10) / 10);
}

/** The value the order form's Internet Speed takes: '87.3 Mbps'. */
export function speedForOrder(result: Pick<StreamTestResult, "download">): string {
  return `${formatMbps(result.download)} Mbps`;
}

export interface ShareContext {
  testedAt: Date;
  /** the business's name from branding ('' when not known yet) */
  companyName: string;
  /** the full stream test page, so whoever receives it can test their own line */
  pageUrl: string;
}

export function shareText(result: StreamTestResult, { testedAt, companyName, pageUrl }: ShareContext): string {
  return [
    companyName ? `My ${companyName} stream test result:` : "My stream test result:",
    `Download: ${formatMbps(result.download)} Mbps`,
    `Ping: ${formatMs(result.ping)} ms`,
    `Jitter: ${formatMs(result.jitter)} ms`,
    `Packet loss: ${formatPercent(result.packetLoss)}% (estimate)`,
    `IPTV readiness: ${READINESS_LABELS[result.iptvReadiness]}`,
    `Recommended quality: ${result.recommendedQuality}`,
    `Tested: ${formatDateTime(testedAt)} SAST`,
    `Test your connection: ${pageUrl}`,
  ].join("\n");
}

/** https://wa.me/?text=… — WhatsApp lets the sender choose the chat. */
export function shareLink(text: string): string {
  return `${WHATSAPP_BASE_URL}?text=${encodeURIComponent(text)}`;
}
