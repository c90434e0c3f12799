// A part whose code arrives after the first paint (a lazy component), on a page the server may
// have drawn. The server draws only `fallback` there, and so does the browser's first render;
// the part itself follows in a transition once the page is running. Left in the server's
// markup, a lazy part could not be adopted: React would give up on it ("#419") and draw it
// again in one task that a slow phone cannot interrupt.
import { type ReactNode, Suspense, startTransition, useEffect, useState } from "react";

export function AfterHydration({
  children,
  fallback = null,
  urgent = false,
}: {
  children: ReactNode;
  fallback?: ReactNode;
  /**
   * Mount at once after hydration rather than in a transition, which waits to commit with the
   * sections mounting in theirs: for a small part that must keep time (the special popup's 1 s).
   */
  urgent?: boolean;
}) {
  const [running, setRunning] = useState(false);
  useEffect(() => (urgent ? setRunning(true) : startTransition(() => setRunning(true))), [urgent]);
  return running ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
