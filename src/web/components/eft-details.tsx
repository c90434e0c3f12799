// How to pay by EFT (POST /api/payments/eft answers it): the amount, the reference to use and
// the business's bank account, with copy buttons for what people type into their banking app.
import type { ReactNode } from "react";
import type { EftResponse } from "@/shared/api";
import { formatRand } from "@/shared/money";
import { CopyButton } from "@/web/components/ui/copy-button";

export interface EftDetailsProps {
  eft: Pick<EftResponse, "reference" | "amount" | "package_name" | "bank">;
  /** what happens once the money arrives, e.g. "We'll activate your account when the payment reflects." */
  afterPayment: ReactNode;
}

export function EftDetails({ eft, afterPayment }: EftDetailsProps) {
  const rows: [label: string, value: string, copy: boolean][] = [
    ["Bank", eft.bank.bank_name, false],
    ["Account name", eft.bank.account_name, false],
    ["Account number", eft.bank.account_number, true],
    ["Branch code", eft.bank.branch_code, true],
    ["Account type", eft.bank.account_type, false],
  ];
  return (
    <div className="flex flex-col gap-4" data-testid="eft-details">
      <p className="text-sm text-ink">
        Pay <span className="tabular font-bold">{formatRand(eft.amount)}</span> for {eft.package_name} into the account below. Use your
        reference exactly as shown, so we can match your payment.
      </p>
      <div className="flex items-center justify-between gap-3 rounded-xl border border-special/40 bg-special/10 p-4">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">Your reference</p>
          <p className="font-mono text-lg font-bold break-all text-ink" data-testid="eft-reference">
            {eft.reference}
          </p>
        </div>
        <CopyButton value={eft.reference} label="Reference" />
      </div>
      <dl className="flex flex-col divide-y divide-line rounded-xl border border-line">
        {rows
          .filter(([, value]) => value)
          .map(([label, value, copy]) => (
            <div key={label} className="flex items-center justify-between gap-3 px-4 py-2">
              <div className="min-w-0">
                <dt className="text-xs text-ink-muted">{label}</dt>
                <dd className="font-medium break-all text-ink">{value}</dd>
              </div>
              {copy ? <CopyButton value={value} label={label} /> : null}
            </div>
          ))}
      </dl>
      <p className="text-sm font-medium text-ink">{afterPayment}</p>
    </div>
  );
}
