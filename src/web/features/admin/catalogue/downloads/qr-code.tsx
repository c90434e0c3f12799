// The QR code customers scan to download an app: drawn as SVG from the data (the download URL
// unless the admin set other data), downloadable as SVG or PNG for flyers and WhatsApp.
import { Download } from "lucide-react";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { Button } from "@/web/components/ui/button";

const OPTIONS = { margin: 2, errorCorrectionLevel: "M" as const, color: { dark: "#000000", light: "#ffffff" } };

function saveFile(href: string, filename: string) {
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** 'IPTV Smarters Pro' → 'iptv-smarters-pro-qr' */
const fileStem = (name: string) =>
  `${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "app"
  }-qr`;

export function QrCode({ data, name }: { data: string; name: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const text = data.trim();

  useEffect(() => {
    let current = true;
    if (!text) {
      setSvg(null);
      return;
    }
    QRCode.toString(text, { ...OPTIONS, type: "svg" })
      .then((markup) => {
        if (current) {
          setSvg(markup);
          setFailed(false);
        }
      })
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [text]);

  if (!text) return <p className="text-sm text-ink-subtle">Add a download URL to get a QR code.</p>;
  if (failed) return <p className="text-sm text-bad">This text is too long for a QR code.</p>;
  if (!svg) return <p className="text-sm text-ink-subtle">Drawing the QR code...</p>;

  const svgHref = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  const downloadPng = async () => {
    const png = await QRCode.toDataURL(text, { ...OPTIONS, width: 1024 });
    saveFile(png, `${fileStem(name)}.png`);
  };

  return (
    <figure className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
      <img
        src={svgHref}
        alt={`QR code for ${text}`}
        width={160}
        height={160}
        className="size-40 rounded-lg bg-white p-1"
        data-testid="qr-code"
      />
      <figcaption className="flex min-w-0 flex-col gap-2 text-sm text-ink-muted">
        <span className="break-all">Scans to: {text}</span>
        <span className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => saveFile(svgHref, `${fileStem(name)}.svg`)}>
            <Download aria-hidden="true" />
            SVG
          </Button>
          <Button variant="outline" size="sm" onClick={() => void downloadPng()}>
            <Download aria-hidden="true" />
            PNG
          </Button>
        </span>
      </figcaption>
    </figure>
  );
}
