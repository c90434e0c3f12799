// How the stream server's URL is typed, in the panel settings and in a manual task that asks for
// it: a URL keyboard, nothing filled in or corrected by the browser, shown in monospace.
export const STREAM_URL_INPUT_PROPS = {
  type: "url",
  inputMode: "url",
  autoComplete: "off",
  spellCheck: false,
  className: "font-mono",
} as const;

/** The placeholder where no URL is known yet. */
export const STREAM_URL_EXAMPLE = "http://line.example.com:8080";
