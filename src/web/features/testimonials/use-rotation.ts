// Spec §4: the testimonials advance every 6 s, cycling. The rotation waits while the pointer or
// keyboard focus is on it, stops for good when the visitor presses pause, and never starts for
// people who ask for reduced motion (they still have the controls).
import { type FocusEvent, useCallback, useEffect, useState } from "react";

function useReducedMotion(): boolean {
  const query = "(prefers-reduced-motion: reduce)";
  const [reduced, setReduced] = useState(() => typeof window.matchMedia === "function" && window.matchMedia(query).matches);
  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const list = window.matchMedia(query);
    const onChange = () => setReduced(list.matches);
    list.addEventListener?.("change", onChange);
    return () => list.removeEventListener?.("change", onChange);
  }, []);
  return reduced;
}

export interface Rotation {
  index: number;
  /** rotating on its own right now (not paused, stopped or reduced) */
  rotating: boolean;
  /** the visitor stopped it with the pause button */
  stopped: boolean;
  reducedMotion: boolean;
  next: () => void;
  previous: () => void;
  goTo: (index: number) => void;
  toggleStopped: () => void;
  /** spread on the rotating region: hover and focus inside pause it */
  hoverProps: {
    onPointerEnter: () => void;
    onPointerLeave: () => void;
    onFocus: () => void;
    onBlur: (event: FocusEvent) => void;
  };
}

export function useRotation(count: number, intervalMs: number): Rotation {
  const [rawIndex, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const reducedMotion = useReducedMotion();
  const rotating = count > 1 && !reducedMotion && !stopped && !hovered && !focused;
  const index = count > 0 ? rawIndex % count : 0;

  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), intervalMs);
    return () => window.clearInterval(timer);
  }, [rotating, count, intervalMs]);

  const goTo = useCallback((i: number) => setIndex(count > 0 ? ((i % count) + count) % count : 0), [count]);

  return {
    index,
    rotating,
    stopped,
    reducedMotion,
    next: () => goTo(index + 1),
    previous: () => goTo(index - 1),
    goTo,
    toggleStopped: () => setStopped((s) => !s),
    hoverProps: {
      onPointerEnter: () => setHovered(true),
      onPointerLeave: () => setHovered(false),
      onFocus: () => setFocused(true),
      onBlur: (event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      },
    },
  };
}
