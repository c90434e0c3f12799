import { describe, expect, it } from "vitest";
import { streamTestResult } from "@/shared/readiness";
import { isValidWhatsAppLink } from "@/shared/whatsapp";
import { formatMbps, formatMs, shareLink, shareText, speedForOrder } from "./share";

describe("share", () => {
  const result = streamTestResult({ download: 87.34, ping: 23, jitter: 4.2, packetLoss: 0 });

  it("formats the figures as the card shows them", () => {
    expect(formatMbps(87.34)).toBe("87.3");
    expect(formatMbps(412.6)).toBe("413");
    expect(formatMs(0.84)).toBe("0.8");
    expect(formatMs(23.4)).toBe("23.4");
    expect(formatMs(29.74)).toBe("29.7");
    expect(speedForOrder(result)).toBe("87.3 Mbps");
  });

  it("the text carries the measurements, the assessment and the time in SAST", () => {
    const text = shareText(result, {
      testedAt: new Date("2026-11-22T12:05:00Z"),
      companyName: "StreamDesk",
      pageUrl: "https://shop.example/stream-test",
    });
    expect(text).toBe(
      [
        "My StreamDesk stream test result:",
        "Download: 87.3 Mbps",
        "Ping: 23 ms",
        "Jitter: 4.2 ms",
        "Packet loss: 0% (estimate)",
        "IPTV readiness: Excellent",
        "Recommended quality: 4K",
        "Tested: 22 Nov 2026, 14:05 SAST",
        "Test your connection: https://shop.example/stream-test",
      ].join("\n"),
    );
  });

  it("shares through wa.me without a number, so the visitor picks the chat", () => {
    const link = shareLink("Download: 50 Mbps & more");
    expect(link).toBe("https://wa.me/?text=Download%3A%2050%20Mbps%20%26%20more");
    expect(isValidWhatsAppLink(link)).toBe(true);
  });
});
