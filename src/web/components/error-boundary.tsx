// One part of a page failing (its code or its render) leaves the rest working. The part's
// fallback says so and offers to try again; `onError` can do more (close a dialog, toast).
import { Component, type ReactNode } from "react";

interface Props {
  /** what to show instead; `retry` renders the children again */
  fallback: (retry: () => void) => ReactNode;
  onError?: (error: unknown) => void;
  children: ReactNode;
}

export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
    this.props.onError?.(error);
  }

  override render() {
    return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children;
  }
}
