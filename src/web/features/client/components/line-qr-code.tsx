// A QR code of the line's M3U link, for TV apps that add a playlist by scanning. Loaded on its
// own (line-details.tsx imports it lazily), so the QR encoder stays out of the portal's chunk.
import QRCode from "qrcode";
import { useEffect, useState } from "react";

export function LineQrCode({ value }: { value: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    // black on white with a quiet zone: what TV cameras read best, whatever the page's theme
    QRCode.toString(value, { type: "svg", margin: 2, errorCorrectionLevel: "M", color: { dark: "#000000", light: "#ffffff" } })
      .then((markup) => {
        if (!current) return;
        setSvg(markup);
        setFailed(false);
      })
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [value]);

  if (failed) return <p className="text-sm text-ink-muted">The QR code couldn't be drawn: copy the M3U link instead.</p>;
  if (!svg) return <div aria-hidden="true" className="size-40 shrink-0 rounded-lg bg-surface-overlay" />;
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt="QR code of your M3U playlist link"
      width={160}
      height={160}
      data-testid="line-qr"
      className="size-40 shrink-0 rounded-lg bg-white"
    />
  );
}
