/** The full-screen state behind which the home page content loads (spec §2). */
export function FullScreenLoading() {
  return (
    <div role="status" aria-live="polite" className="fixed inset-0 z-40 flex items-center justify-center bg-canvas">
      <div className="flex flex-col items-center gap-4">
        <span
          aria-hidden="true"
          className="size-10 animate-spin rounded-full border-4 border-line border-t-accent motion-reduce:animate-none"
        />
        <p className="font-medium text-ink-muted">Loading...</p>
      </div>
    </div>
  );
}
