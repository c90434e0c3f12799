import { BookOpen, Home } from "lucide-react";
import { Link, useLocation } from "react-router";
import { buttonClasses } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";

/** Any address the route table does not know. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Container className="flex flex-col items-center gap-6 py-24 text-center sm:py-32">
      <p className="tabular text-6xl font-extrabold text-accent-ink">404</p>
      <h1 className="text-3xl font-bold tracking-tight text-ink">We couldn't find that page</h1>
      <p className="max-w-md text-ink-muted">
        There's nothing at <span className="break-all text-ink">{pathname}</span>. It may have moved, or the link may have a typo.
      </p>
      <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
        <Link to="/" className={buttonClasses()}>
          <Home aria-hidden="true" />
          Back to the home page
        </Link>
        <Link to="/knowledge-base" className={buttonClasses({ variant: "outline" })}>
          <BookOpen aria-hidden="true" />
          Visit the Help Centre
        </Link>
      </div>
    </Container>
  );
}
