// The legal pages, written for South Africa (POPIA, ECT Act, CPA) as templates the business
// fills from its branding and settings. They state no fact about the business that the
// operator has not entered: a missing one reads 'available on request' (legal-document.tsx).
import { Link } from "react-router";
import { DATA_REQUEST_DAYS, ERASURE_KEEPS } from "@/shared/data-request-schemas";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { useBranding } from "@/web/lib/queries/branding";
import { useSettings } from "@/web/lib/queries/settings";
import { BusinessFacts, LegalDocument, type LegalSection, OnRequest } from "./legal-document";
import { type LegalFacts, legalFacts } from "./legal-facts";

function useLegalFacts(): { facts: LegalFacts; loading: boolean } {
  const { branding, isLoading: brandingLoading } = useBranding();
  const { settings, isLoading: settingsLoading } = useSettings();
  return { facts: legalFacts(branding, settings), loading: brandingLoading || settingsLoading };
}

const INFORMATION_REGULATOR_URL = "https://inforegulator.org.za";

/** The support e-mail and WhatsApp number, whichever the business has published. */
function ContactLine({ facts }: { facts: LegalFacts }) {
  const email = facts.supportEmail ? <a href={`mailto:${facts.supportEmail}`}>{facts.supportEmail}</a> : null;
  const whatsapp = facts.whatsappNumber ? `WhatsApp ${formatPhoneForDisplay(facts.whatsappNumber)}` : "";
  if (email && whatsapp) {
    return (
      <span>
        {email} or {whatsapp}
      </span>
    );
  }
  return <span>{email ?? (whatsapp || "our support team")}</span>;
}

function VatStatement({ facts }: { facts: LegalFacts }) {
  if (facts.vatNote) return <span>{facts.vatNote}</span>;
  if (facts.pricesIncludeVat === true) return <span>All prices include VAT.</span>;
  if (facts.pricesIncludeVat === false) return <span>The prices shown do not include VAT.</span>;
  return (
    <>
      Whether prices include VAT: <OnRequest facts={facts} />.
    </>
  );
}

// ---- Privacy Policy (POPIA) ------------------------------------------------------------------

function privacySections(facts: LegalFacts): LegalSection[] {
  const name = facts.companyName;
  return [
    {
      id: "responsible-party",
      title: "Who is responsible for your information",
      body: (
        <>
          <p>
            {name} is the responsible party for the personal information you give us on this website, in the client portal and in messages
            to us, as the Protection of Personal Information Act (POPIA) uses the term.
          </p>
          <BusinessFacts facts={facts} withOfficer />
        </>
      ),
    },
    {
      id: "information-officer",
      title: "Our information officer",
      body: (
        <p>
          {facts.officerName ? (
            <>
              Our information officer, <strong>{facts.officerName}</strong>, handles privacy questions and requests
              {facts.officerEmail ? (
                <>
                  {" "}
                  at <a href={`mailto:${facts.officerEmail}`}>{facts.officerEmail}</a>
                </>
              ) : null}
              .
            </>
          ) : (
            <>
              Our information officer handles privacy questions and requests. Their name and contact details: <OnRequest facts={facts} />.
            </>
          )}{" "}
          You can also write to <ContactLine facts={facts} /> and we will pass your request on.
        </p>
      ),
    },
    {
      id: "what-we-collect",
      title: "What we collect",
      body: (
        <>
          <p>We collect only what we need to set up, run and support your subscription:</p>
          <ul>
            <li>
              <strong>When you order or ask for a quote:</strong> your name, e-mail address and WhatsApp number (required, so we can reach
              you), and the package, duration, device, internet platform and internet speed you choose (optional, to help us set you up).
            </li>
            <li>
              <strong>When you become a client:</strong> your username and password (stored only as a one-way hash), your package,
              subscription dates and status, and the streaming line details we issue to you.
            </li>
            <li>
              <strong>When you pay:</strong> the amount, package, payment reference and whether the payment succeeded. Card numbers go
              straight to the card payment provider; we never see or store them.
            </li>
            <li>
              <strong>When you ask for help:</strong> what you tell us on WhatsApp or by e-mail, and stream test results you choose to share
              with us.
            </li>
            <li>
              <strong>When you use the website:</strong> your IP address, briefly, to protect the site against abuse (for example, to limit
              repeated form submissions).
            </li>
          </ul>
        </>
      ),
    },
    {
      id: "purposes",
      title: "Why we use it",
      body: (
        <ul>
          <li>To answer your order or quote request and set up your free trial or subscription.</li>
          <li>To send your login details, payment confirmations, setup instructions and reminders before your term ends.</li>
          <li>To take and confirm payments, and keep the records the law requires.</li>
          <li>To help you when something doesn't work, and to improve our service.</li>
          <li>To keep the website and your account secure.</li>
        </ul>
      ),
    },
    {
      id: "direct-marketing",
      title: "Direct marketing",
      body: (
        <>
          <p>
            Messages about your order, payment or subscription are service messages, not marketing. We send marketing (specials and news) by
            e-mail, SMS or WhatsApp only if you have said yes to it separately, and we keep a record of when you did and what you agreed to.
          </p>
          <p>
            Every marketing message tells you how to stop them, and you can opt out at any time by telling us at{" "}
            <ContactLine facts={facts} />.
          </p>
        </>
      ),
    },
    {
      id: "recipients",
      title: "Who we share it with",
      body: (
        <>
          <p>We never sell your personal information. We share it only with service providers who help us run the service:</p>
          <ul>
            <li>
              <strong>Our hosting provider</strong>, which runs the website and stores our database.
            </li>
            <li>
              <strong>Our e-mail provider</strong>, which delivers the e-mails we send you.
            </li>
            <li>
              <strong>WhatsApp (Meta)</strong>, when you message us or we message you on WhatsApp.
            </li>
            <li>
              <strong>Our card payment provider</strong>, when you pay by card.
            </li>
          </ul>
          <p>They may use your information only to provide their service to us. We also disclose information when the law requires it.</p>
        </>
      ),
    },
    {
      id: "cross-border",
      title: "Information sent outside South Africa",
      body: (
        <p>
          Some of these providers, WhatsApp in particular, store or process information outside South Africa. We use only providers that are
          bound by laws or agreements giving your information protection similar to POPIA, as section 72 of POPIA requires. Ask us if you
          would like to know where a provider keeps your information.
        </p>
      ),
    },
    {
      id: "retention",
      title: "How long we keep it",
      body: (
        <ul>
          <li>
            Account and subscription details: while you are a client, and afterwards only as long as we need them to deal with questions
            about your account.
          </li>
          <li>Payment records: as long as tax and accounting laws require.</li>
          <li>Order and quote requests that don't lead to a subscription: only as long as we need them to follow up with you.</li>
          <li>Records of your marketing choices: as long as we may contact you, so we can respect them.</li>
        </ul>
      ),
    },
    {
      id: "security",
      title: "How we protect it",
      body: (
        <p>
          Passwords are stored only as one-way hashes, sign-in uses cookies that scripts on the page cannot read, card numbers never reach
          us, and only our staff can see client records, each signing in with their own account. If we ever learn that your information has
          been accessed without permission, we will tell you and the Information Regulator as POPIA requires.
        </p>
      ),
    },
    {
      id: "cookies",
      title: "Cookies and your browser",
      body: (
        <p>
          We use cookies only to keep you signed in to the client portal or the business dashboard. The website also remembers a few choices
          in your browser, such as whether it has already shown you a special or asked about notifications. We don't use advertising or
          tracking cookies.
        </p>
      ),
    },
    {
      id: "your-rights",
      title: "Your rights",
      body: (
        <>
          <p>Under POPIA you may:</p>
          <ul>
            <li>ask whether we hold information about you, and for a copy of it (access);</li>
            <li>ask us to correct information that is wrong, or to delete information we no longer need (correction and deletion);</li>
            <li>object to our use of your information, and withdraw a consent you gave, including for marketing (objection);</li>
            <li>
              complain to the Information Regulator if you are not happy with how we handle your information:{" "}
              <a href={INFORMATION_REGULATOR_URL} target="_blank" rel="noopener noreferrer">
                inforegulator.org.za
              </a>
              .
            </li>
          </ul>
          <p>
            To use these rights, contact our information officer (above) or <ContactLine facts={facts} />. We may ask you to prove who you
            are before we share or change anything.
          </p>
        </>
      ),
    },
    {
      // POPIA s23 and s24 in practice (issue 46 items 6 and 7): how to ask, what happens, what is kept and why
      id: "correct-or-delete",
      title: "How to see, correct or delete your data",
      body: (
        <>
          <p>
            If you are a client, sign in to your <Link to="/account-management">client portal's account page</Link>. There you can download
            everything we hold about you (<strong>Download my data</strong>), and under <strong>Correct or delete my data</strong> tell us
            what is wrong and what it should say, or ask us to delete your data. You can also ask our information officer (above) or{" "}
            <ContactLine facts={facts} />. It is free.
          </p>
          <p>
            We answer within {DATA_REQUEST_DAYS} days and tell you what we did. If we cannot do what you asked, we tell you why, and you may
            complain to the Information Regulator.
          </p>
          <p>
            When we delete your data we remove your name, e-mail address, WhatsApp number, notes, box MAC address, the contents of our
            messages to and from you, your orders and enquiries, and your portal account. {ERASURE_KEEPS} They are then used for nothing
            else.
          </p>
        </>
      ),
    },
    {
      id: "changes",
      title: "Changes to this policy",
      body: <p>If we change this policy, we'll update the date at the top of this page. We'll tell clients about important changes.</p>,
    },
  ];
}

export function PrivacyPolicyPage() {
  const { facts, loading } = useLegalFacts();
  return (
    <LegalDocument
      title="Privacy Policy"
      loading={loading}
      intro={
        <p>
          This policy explains what personal information {facts.companyName || "we"} collects, why, who we share it with and the rights you
          have under the Protection of Personal Information Act (POPIA).
        </p>
      }
      sections={privacySections(facts)}
    />
  );
}

// ---- Terms of Service (ECT Act s43, CPA) ------------------------------------------------------

function termsSections(facts: LegalFacts): LegalSection[] {
  const name = facts.companyName;
  return [
    {
      id: "who-we-are",
      title: "Who we are",
      body: (
        <>
          <p>These terms are an agreement between you and {name}. Here are our details, as the ECT Act requires:</p>
          <BusinessFacts facts={facts} />
        </>
      ),
    },
    {
      id: "the-service",
      title: "The service",
      body: (
        <>
          <p>
            {name} resells streaming subscriptions from licensed upstream providers. Those providers decide the channel line-up, which can
            change.
          </p>
          <p>
            The picture you get depends on your internet connection and device. Please run the <Link to="/stream-test">stream test</Link>{" "}
            before you buy, and use the free trial to see how it works at home.
          </p>
        </>
      ),
    },
    {
      id: "prices",
      title: "Prices and payment",
      body: (
        <>
          <p>
            The full price of every package, in South African rand, is on our <Link to="/pricing">Pricing page</Link>. The price you pay is
            the price shown when you order; a special shows both the normal and the special price. <VatStatement facts={facts} />
          </p>
          <p>You can pay in one of two ways:</p>
          <ul>
            <li>
              <strong>Card:</strong> through a secure payment link from our card payment provider. The payment page shows the amount before
              you pay, and card payments are confirmed at once.
            </li>
            <li>
              <strong>EFT:</strong> into the bank account we show you, with the payment reference we give you. Your line activates once the
              money reflects in our account, which can take 1 to 2 business days between different banks.
            </li>
          </ul>
          <p>We never charge you automatically. Each term is paid for in advance, and you renew by paying again.</p>
        </>
      ),
    },
    {
      id: "ordering",
      title: "Ordering",
      body: (
        <ul>
          <li>You can review and correct every detail in the order form before you submit it.</li>
          <li>After you order, we confirm on WhatsApp or by e-mail. Tell us straight away if anything in the confirmation is wrong.</li>
          <li>An agreement is made when we confirm your order and your payment is received (or your free trial starts).</li>
        </ul>
      ),
    },
    {
      id: "free-trial",
      title: "The free trial",
      body: (
        <p>
          {facts.freeTrialRules ||
            "The free trial lasts 24 hours, needs no card, and is limited to one per person. Free trials are not available on sport event days."}{" "}
          Nothing is charged when a trial ends.
        </p>
      ),
    },
    {
      id: "term",
      title: "Your subscription term",
      body: (
        <>
          <p>
            A subscription runs for the period you paid for (for example one, three or twelve months) and starts when we activate your line.
            We remind you before your term ends, so you can choose whether to renew.
          </p>
          <p>
            You may cancel a fixed-term subscription at any time by giving us 20 business days' notice, as section 14 of the Consumer
            Protection Act allows. How refunds work is explained in our <Link to="/refund-policy">Refund Policy</Link>, including your 7-day
            cooling-off right under the ECT Act.
          </p>
        </>
      ),
    },
    {
      id: "fair-use",
      title: "Using your account",
      body: (
        <ul>
          <li>Your subscription is for viewing in your own household. Please don't resell it or share your login details.</li>
          <li>Keep your login details safe, and tell us if you think someone else is using them.</li>
          <li>We may suspend an account that is being misused, after telling you why, unless the law requires us to act at once.</li>
        </ul>
      ),
    },
    {
      id: "availability",
      title: "Availability and support",
      body: (
        <p>
          We work to keep the service running at all times, but we can't promise it will never be interrupted: upstream providers,
          maintenance and internet problems outside our control can all cause breaks. You can follow the live state of our services on the{" "}
          <Link to="/status">status page</Link>. Our support team is available {facts.supportHours}.
        </p>
      ),
    },
    {
      id: "your-rights",
      title: "Your rights as a consumer",
      body: (
        <p>
          Nothing in these terms takes away your rights under the Consumer Protection Act or the Electronic Communications and Transactions
          Act. If a term here conflicts with those laws, the law wins.
        </p>
      ),
    },
    {
      id: "complaints",
      title: "Complaints",
      body: (
        <p>
          If you're unhappy, please tell us first at <ContactLine facts={facts} />, so we can put it right. If we can't resolve it, you may
          take it further through the consumer protection channels South African law provides. These terms are governed by the law of South
          Africa.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to these terms",
      body: (
        <p>
          If we change these terms, we'll update the date at the top of this page. Changes apply to new orders and renewals, not to a term
          you have already paid for.
        </p>
      ),
    },
  ];
}

export function TermsOfServicePage() {
  const { facts, loading } = useLegalFacts();
  return (
    <LegalDocument
      title="Terms of Service"
      loading={loading}
      intro={
        <p>
          These terms cover your use of {facts.companyName ? `${facts.companyName}'s` : "our"} website and the subscriptions sold on it.
          Please read them before you order.
        </p>
      }
      sections={termsSections(facts)}
    />
  );
}

// ---- Refund Policy (ECT Act s44, CPA s14) ----------------------------------------------------

function refundSections(facts: LegalFacts): LegalSection[] {
  return [
    {
      id: "free-trial",
      title: "The free trial",
      body: <p>The free 24-hour trial costs nothing, so there is nothing to refund. It's the best way to be sure before you pay.</p>,
    },
    {
      id: "cooling-off",
      title: "7-day cooling-off",
      body: (
        <>
          <p>
            Under section 44 of the Electronic Communications and Transactions Act, you may cancel an order made on this website within 7
            days after the agreement is made, without giving a reason and without a penalty.
          </p>
          <p>
            This does not apply if you asked us to start your subscription at once, before the 7 days are over. Paid plans activate as soon
            as your payment is confirmed, so we ask for your consent to that when you order. If you have not asked for an immediate start,
            you may still cancel within the 7 days.
          </p>
        </>
      ),
    },
    {
      id: "cancel-fixed-term",
      title: "Cancelling a fixed-term subscription",
      body: (
        <p>
          Under section 14 of the Consumer Protection Act, you may cancel a fixed-term subscription at any time by giving us 20 business
          days' notice on WhatsApp or by e-mail. We then refund the unused part of what you paid, less any reasonable cancellation charge
          the Act allows. We tell you the amount before we refund it.
        </p>
      ),
    },
    {
      id: "service-problems",
      title: "When the service doesn't work",
      body: (
        <>
          <p>
            If the service doesn't work because of a fault on our side and our support team can't fix it within a reasonable time, we'll
            refund the days you couldn't use, or extend your subscription if you prefer.
          </p>
          <p>
            We can't refund for problems outside our service, such as your internet connection or device, or fees you paid to someone else
            (for example an app maker's activation fee). We'll still gladly help you get them working.
          </p>
        </>
      ),
    },
    {
      id: "how-refunds-are-paid",
      title: "How refunds are paid",
      body: (
        <ul>
          <li>Card payments are refunded to the same card, through our card payment provider.</li>
          <li>EFT payments are refunded by EFT to a bank account in your name.</li>
          <li>We pay refunds within 30 days of your cancellation, as the ECT Act requires.</li>
        </ul>
      ),
    },
    {
      id: "how-to-ask",
      title: "How to ask for a refund",
      body: (
        <>
          <p>
            Contact us at <ContactLine facts={facts} /> with your name, the WhatsApp number or e-mail address you ordered with, and your
            payment reference. Our team is available {facts.supportHours}.
          </p>
          <BusinessFacts facts={facts} />
        </>
      ),
    },
  ];
}

export function RefundPolicyPage() {
  const { facts, loading } = useLegalFacts();
  return (
    <LegalDocument
      title="Refund Policy"
      loading={loading}
      intro={
        <p>
          {facts.companyName || "We"} wants you to be sure before you pay. This page explains your cooling-off rights, how to cancel, and
          how refunds are paid.
        </p>
      }
      sections={refundSections(facts)}
    />
  );
}
