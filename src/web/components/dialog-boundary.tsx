// A lazily loaded dialog whose code cannot arrive (a new release replaced the files, or the
// connection dropped) must not take the section it sits in down with it (the pricing cards, the
// apps list): the dialog closes and the visitor is told what to do.
import { Component, type ReactNode } from "react";
import { toast } from "sonner";

export class DialogBoundary extends Component<{ onClose: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
    toast.error("Couldn't open this just now", { description: "Please check your connection and reload the page." });
    this.props.onClose();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
