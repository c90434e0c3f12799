// A part whose code arrives after the first paint (a lazy component), on a page the server may
// have drawn. The server draws only `fallback` there, and so does the browser's first render;
// the part itself follows in a transition once the page is running. Left in the server's
// markup, a lazy part could not be adopted: React would give up on it ("#419") and draw it
// again in one task that a slow phone cannot interrupt.
import { type ReactNode, Suspense, startTransition, useEffect, useState } from "react";

export function AfterHydration({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const [running, setRunning] = useState(false);
  useEffect(() => startTransition(() => setRunning(true)), []);
  return running ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
