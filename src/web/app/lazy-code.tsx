// The code of the lazy pages and wrappers: fetched once, drawn at once when it is already here
// (the server's first screen, and the browser adopting it), and a failed fetch tried again only
// when the visitor asks (Try Again, or another address).
import type { ComponentType } from "react";

export type Load = () => Promise<ComponentType>;
type Code = Promise<ComponentType> & { component?: ComponentType; failed?: { error: unknown } };

const codes = new Map<Load, Code>();

export function codeOf(load: Load): Code {
  let code = codes.get(load);
  if (!code) {
    const loading: Code = load().then((component) => {
      loading.component = component;
      return component;
    });
    loading.catch((error: unknown) => {
      loading.failed = { error };
    });
    codes.set(load, loading);
    code = loading;
  }
  return code;
}

/** Forgets the fetches that failed, so the next draw fetches again (called when an error screen is left). */
export function forgetFailedCode(): void {
  for (const [load, code] of codes) if (code.failed) codes.delete(load);
}

/**
 * Draws a lazy part: at once when its code is here, else suspends until it is (the way
 * `React.lazy` does, which always suspends on its first render). A failed fetch throws to the
 * nearest error boundary.
 */
export function LazyCode({ load }: { load: Load }) {
  const code = codeOf(load);
  if (code.failed) throw code.failed.error;
  if (!code.component) throw code;
  const Component = code.component;
  return <Component />;
}
