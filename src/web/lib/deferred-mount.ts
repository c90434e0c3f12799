// Parts of a page below the fold (the landing's sections, the footer) mount after the first
// screen, so a phone on a slow connection draws the hero without waiting for them. Each part
// mounts at the first of:
//   - it comes within a screen of the view (the visitor scrolls towards it);
//   - something asks to scroll within the page (a menu link, the hero's buttons, a #hash): then
//     every part mounts at once, so the target is where it will stay;
//   - the browser is idle after the page has loaded: one part per idle period, in page order,
//     so no single task holds up a tap;
//   - the visitor presses Tab: keyboard users reach every part in order.

type Listener = () => void;

let everything = false;
const listeners = new Set<Listener>();

/** Mount every deferred part now (before scrolling to one of them). */
export function mountAllDeferred(): void {
  if (everything) return;
  everything = true;
  idleQueue.length = 0;
  for (const listener of [...listeners]) listener();
}

export function subscribeMountAll(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function allDeferredMounted(): boolean {
  return everything;
}

// ---- the idle queue ------------------------------------------------------------------------

/** Time left for other work between two parts when the browser has no idle callbacks (Safari). */
const NO_IDLE_CALLBACK_GAP_MS = 50;

const idleQueue: Array<() => unknown> = [];
let draining = false;

/**
 * Run `mount` when the browser is next idle after the page's load, after the parts queued before
 * it. When it returns a promise (the part's code loading), the next part waits for it.
 */
export function mountWhenIdle(mount: () => unknown): () => void {
  idleQueue.push(mount);
  startDraining();
  return () => {
    const index = idleQueue.indexOf(mount);
    if (index >= 0) idleQueue.splice(index, 1);
  };
}

function startDraining(): void {
  if (draining) return;
  draining = true;
  if (document.readyState === "complete") nextIdle(drainOne);
  else window.addEventListener("load", () => nextIdle(drainOne), { once: true });
  window.addEventListener("keydown", onFirstTab);
}

function onFirstTab(event: KeyboardEvent): void {
  if (event.key !== "Tab") return;
  window.removeEventListener("keydown", onFirstTab);
  mountAllDeferred();
}

function drainOne(): void {
  const mount = idleQueue.shift();
  if (!mount) {
    draining = false;
    return;
  }
  const next = () => nextIdle(drainOne);
  Promise.resolve(mount()).then(next, next);
}

function nextIdle(callback: () => void): void {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(callback, { timeout: 2000 });
  else window.setTimeout(callback, NO_IDLE_CALLBACK_GAP_MS);
}

/** For tests: back to the state of a fresh page. */
export function resetDeferredMount(): void {
  everything = false;
  idleQueue.length = 0;
  draining = false;
  listeners.clear();
}
