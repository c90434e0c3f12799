// Links an admin sets (downloads, logos, images, banners, footer and support links): an absolute
// http(s) address, or a path on this site. Never `javascript:`, never `//host` or `/\host`
// (browsers read a backslash as a slash, so `/\evil.example` would leave the site), never a
// user-info `user@host` address, and no spaces or backslashes anywhere.
export const SAFE_LINK_PATTERN = /^(?:https?:\/\/[^\s/\\?#@]+(?:[/?#][^\s\\]*)?|\/(?![/\\])[^\s\\]*)$/i;

export function isSafeLink(value: string): boolean {
  return SAFE_LINK_PATTERN.test(value);
}
