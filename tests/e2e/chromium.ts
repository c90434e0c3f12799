// The browser every browser run drives: Debian's Chromium, never a downloaded one, launched
// headless without a sandbox (CI runs as root) and with nothing reaching for the internet
// (no QUIC, background networking, component updates or sync). Used by the Playwright config
// and by scripts/bench-lighthouse.ts.
export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
