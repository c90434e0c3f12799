import { RotateCcw } from "lucide-react";
import { Component, type ReactNode } from "react";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";

interface Props {
  /** the section's anchor id, kept on the fallback so links to it still land */
  id: string;
  children: ReactNode;
}

/** One section of a page failing (its code or its render) leaves the rest of the page working. */
export class SectionBoundary extends Component<Props, { failed: boolean }> {
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
      <section id={this.props.id} className="py-16">
        <Container className="flex flex-col items-center gap-4 text-center">
          <p className="text-ink-muted">This part of the page couldn't load.</p>
          <Button variant="outline" size="sm" onClick={() => this.setState({ failed: false })}>
            <RotateCcw aria-hidden="true" />
            Try Again
          </Button>
        </Container>
      </section>
    );
  }
}
