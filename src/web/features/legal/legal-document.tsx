// The frame of a legal page: title, last-updated date, contents, and long text set for reading.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatDate } from "@/shared/dates";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { Container } from "@/web/components/ui/container";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { LEGAL_LAST_UPDATED, type LegalFacts } from "./legal-facts";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export function LegalDocument({
  title,
  intro,
  sections,
  loading,
}: {
  title: string;
  intro: ReactNode;
  sections: LegalSection[];
  loading: boolean;
}) {
  return (
    <Container className="py-14 sm:py-20">
      <header className="flex max-w-3xl flex-col gap-4">
        <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">Legal</p>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">{title}</h1>
        <p className="text-sm text-ink-subtle">
          Last updated <time dateTime={LEGAL_LAST_UPDATED}>{formatDate(LEGAL_LAST_UPDATED)}</time>
        </p>
      </header>
      <div className="mt-10 grid gap-10 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-14">
        <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
          {/* Phones: folded away above the text. Wide screens: always open beside it. */}
          <details className="rounded-card border border-line bg-surface lg:hidden">
            <summary className="flex min-h-12 cursor-pointer items-center px-5 text-sm font-semibold text-ink">On this page</summary>
            <Contents sections={sections} className="px-3 pb-3" />
          </details>
          <div className="hidden lg:block">
            <p className="mb-2 text-sm font-semibold text-ink">On this page</p>
            <Contents sections={sections} />
          </div>
        </nav>
        <div className="flex min-w-0 max-w-[68ch] flex-col gap-12">
          <div className="text-lg leading-relaxed text-pretty text-ink-muted">{intro}</div>
          {loading ? (
            <div role="status" aria-busy="true" className="flex flex-col gap-3">
              <span className="sr-only">Loading...</span>
              <Skeleton className="h-6 w-1/2" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-5/6" />
            </div>
          ) : (
            sections.map((section) => (
              <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="scroll-mt-24">
                <h2 id={`${section.id}-heading`} className="mb-4 text-xl font-semibold tracking-tight text-ink sm:text-2xl">
                  {section.title}
                </h2>
                <Prose>{section.body}</Prose>
              </section>
            ))
          )}
          <p className="border-t border-line pt-6 text-ink-muted">
            Questions about this page?{" "}
            <Link to="/support" className="font-medium text-accent-ink underline underline-offset-4">
              Contact support
            </Link>
            . See also our{" "}
            <Link to="/privacy-policy" className="text-accent-ink underline underline-offset-4">
              Privacy Policy
            </Link>
            ,{" "}
            <Link to="/terms-of-service" className="text-accent-ink underline underline-offset-4">
              Terms of Service
            </Link>{" "}
            and{" "}
            <Link to="/refund-policy" className="text-accent-ink underline underline-offset-4">
              Refund Policy
            </Link>
            .
          </p>
        </div>
      </div>
    </Container>
  );
}

function Contents({ sections, className }: { sections: LegalSection[]; className?: string }) {
  return (
    <ol className={cn("flex flex-col gap-0.5 text-sm", className)}>
      {sections.map((section) => (
        <li key={section.id}>
          <a
            href={`#${section.id}`}
            className="flex min-h-11 items-center rounded-lg px-2 text-ink-muted transition-colors hover:bg-surface-raised hover:text-ink lg:-mx-2"
          >
            {section.title}
          </a>
        </li>
      ))}
    </ol>
  );
}

/** Long text: comfortable line height, spaced paragraphs and lists. */
export function Prose({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col gap-4 leading-relaxed text-ink-muted [&_a]:text-accent-ink [&_a]:underline [&_a]:underline-offset-4 [&_li]:pl-1 [&_ol]:flex [&_ol]:list-decimal [&_ol]:flex-col [&_ol]:gap-2 [&_ol]:pl-6 [&_strong]:font-semibold [&_strong]:text-ink [&_ul]:flex [&_ul]:list-disc [&_ul]:flex-col [&_ul]:gap-2 [&_ul]:pl-6 [&_ul]:marker:text-accent-ink">
      {children}
    </div>
  );
}

/** How to ask for a detail the business has not published. */
export function OnRequest({ facts }: { facts: LegalFacts }) {
  return (
    <span data-on-request="">
      Available on request from{" "}
      {facts.supportEmail ? (
        <a href={`mailto:${facts.supportEmail}`}>{facts.supportEmail}</a>
      ) : facts.whatsappNumber ? (
        <>our support team on WhatsApp ({formatPhoneForDisplay(facts.whatsappNumber)})</>
      ) : (
        "our support team"
      )}
    </span>
  );
}

/** A business fact, or 'available on request' when it has not been filled in. */
export function Fact({ value, facts }: { value: string; facts: LegalFacts }) {
  return value ? <span className="whitespace-pre-line">{value}</span> : <OnRequest facts={facts} />;
}

/** The ECT Act s43 facts: who the business is and how to reach it. */
export function BusinessFacts({ facts, withOfficer = false }: { facts: LegalFacts; withOfficer?: boolean }) {
  return (
    <dl className="grid gap-x-6 gap-y-4 rounded-card border border-line bg-surface p-5 text-base sm:grid-cols-[12rem_1fr] sm:p-6">
      <FactRow label="Trading name">{facts.companyName}</FactRow>
      <FactRow label="Registered name">
        <Fact value={facts.legalName} facts={facts} />
      </FactRow>
      <FactRow label="Registration number">
        <Fact value={facts.registrationNumber} facts={facts} />
      </FactRow>
      <FactRow label="Physical address">
        <Fact value={facts.address} facts={facts} />
      </FactRow>
      <FactRow label="E-mail">
        {facts.supportEmail ? <a href={`mailto:${facts.supportEmail}`}>{facts.supportEmail}</a> : <OnRequest facts={facts} />}
      </FactRow>
      <FactRow label="WhatsApp">{facts.whatsappNumber ? formatPhoneForDisplay(facts.whatsappNumber) : <OnRequest facts={facts} />}</FactRow>
      <FactRow label="Support hours">{facts.supportHours}</FactRow>
      {withOfficer ? (
        <>
          <FactRow label="Information officer">
            <Fact value={facts.officerName} facts={facts} />
          </FactRow>
          <FactRow label="Information officer's e-mail">
            {facts.officerEmail ? <a href={`mailto:${facts.officerEmail}`}>{facts.officerEmail}</a> : <OnRequest facts={facts} />}
          </FactRow>
        </>
      ) : null}
    </dl>
  );
}

function FactRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:contents">
      <dt className="font-medium text-ink">{label}</dt>
      <dd className="min-w-0 break-words text-ink-muted">{children}</dd>
    </div>
  );
}
