import { Component, type ReactNode } from "react";
import { ErrorScreen } from "./error-screen";

interface State {
  error: unknown;
  failed: boolean;
}

/**
 * The outermost safety net: an error anywhere outside the router's own boundaries (providers,
 * the router itself) shows the global error screen. Try Again clears the error and renders the
 * children again.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override render() {
    if (this.state.failed) {
      return <ErrorScreen error={this.state.error} onRetry={() => this.setState({ error: null, failed: false })} />;
    }
    return this.props.children;
  }
}
