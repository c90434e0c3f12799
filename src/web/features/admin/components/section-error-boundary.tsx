import { RotateCcw } from "lucide-react";
import { Component, type ReactNode } from "react";
import { Button } from "@/web/components/ui/button";

/** One admin section failing (its code or its render) leaves the wrapper and navigation working. */
export class SectionErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="flex flex-col items-center gap-4 rounded-card border border-line bg-surface px-6 py-14 text-center">
        <h1 className="text-xl font-bold text-ink">Something went wrong</h1>
        <p className="max-w-md text-ink-muted">This part of the dashboard couldn't load. Your other sections still work.</p>
        <Button variant="outline" size="sm" onClick={() => this.setState({ failed: false })}>
          <RotateCcw aria-hidden="true" />
          Try Again
        </Button>
      </div>
    );
  }
}
