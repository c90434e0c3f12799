/** Joins class names, skipping empty ones. Later classes do not override earlier ones: keep variants disjoint. */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(" ");
}
