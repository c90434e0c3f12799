// One part of a page failing (its code or its render) leaves the rest working. The part's
// fallback says so and offers to try again; `onError` can do more (close a dialog, toast).
import { Component, type ReactNode } from "react";

interface Props {
  /** what to show instead; `retry` renders the children again */
  fallback: (retry: () => void, error: unknown) => ReactNode;
  onError?: (error: unknown) => void;
  /** when it changes (another address), a failed part is drawn again */
  resetKey?: unknown;
  /** before a failed part is drawn again */
  onReset?: () => void;
  children: ReactNode;
}

interface State {
  failed: boolean;
  error: unknown;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
    this.props.onError?.(error);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.reset();
  }

  private reset = () => {
    this.props.onReset?.();
    this.setState({ failed: false, error: null });
  };

  override render() {
    return this.state.failed ? this.props.fallback(this.reset, this.state.error) : this.props.children;
  }
}
