import { useEffect, useMemo, useRef } from "react";

/** A stable function that calls the latest `callback` once `delayMs` have passed without another call. */
export function useDebouncedCallback<A extends unknown[]>(callback: (...args: A) => void, delayMs: number) {
  const latest = useRef(callback);
  latest.current = callback;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useMemo(() => {
    const debounced = (...args: A) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => latest.current(...args), delayMs);
    };
    debounced.cancel = () => clearTimeout(timer.current);
    return debounced;
  }, [delayMs]);
}
