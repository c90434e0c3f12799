// The few pages the server writes itself (the test checkout, the hand-off to a provider, the
// status-update links): text made safe for HTML, and the top of a page no search engine lists.

/** Text (or an attribute's value) with the five characters HTML gives meaning to escaped. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** A page's opening up to and with its <title> (already escaped): for phones, in English (South Africa), not indexed. */
export const unlistedPageHead = (title: string) => `<!doctype html>
<html lang="en-ZA">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>`;
