// The code of the lazy pages and wrappers: fetched once, drawn at once when it is already here
// (the server's first screen, and the browser adopting it), and a failed fetch tried again only
// when the visitor asks (Try Again, or another address).
import { type ComponentType, type ReactNode, Suspense, useState } from "react";

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
function LazyCode({ load }: { load: Load }) {
  const code = codeOf(load);
  if (code.failed) throw code.failed.error;
  if (!code.component) throw code;
  const Component = code.component;
  return <Component />;
}

/**
 * A lazy part with what stands in while its code loads. When its code is already here (the
 * server's first screen, and the browser adopting it) there is no Suspense boundary at all, so
 * the markup holds none for React to give up on; decided once, so the part never remounts.
 */
export function LazyPart({ load, fallback }: { load: Load; fallback: ReactNode }) {
  const [loaded] = useState(() => codeOf(load).component !== undefined);
  const code = <LazyCode load={load} />;
  return loaded ? code : <Suspense fallback={fallback}>{code}</Suspense>;
}
