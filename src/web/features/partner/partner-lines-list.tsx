// The partner's own lines (issue 45 item 3), each with its login and what they can do with it:
// renew it from their credits (asked once more, with the cost, before anything is spent) and
// switch it off or on again. A renewal keeps its Idempotency-Key until it has an answer, so
// pressing again after a lost answer is the same renewal, never a second charge.
import { useRef, useState } from "react";
import { formatDate } from "@/shared/dates";
import { Button } from "@/web/components/ui/button";
import { ApiError } from "@/web/lib/api";
import { type PartnerLine, usePartnerLines, usePartnerPackages, useRenewLine, useSwitchLine } from "./api/partner-lines";

export function PartnerLines({ className }: { className: string }) {
  const lines = usePartnerLines();
  return (
    <section aria-label="Your lines" className={className}>
      <h2 className="text-lg font-semibold text-ink">Your lines</h2>
      {lines.data?.length === 0 ? <p className="text-sm text-ink-muted">No lines yet.</p> : null}
      <ul className="flex flex-col gap-3">
        {lines.data?.map((line) => (
          <LineItem key={line.id} line={line} />
        ))}
      </ul>
    </section>
  );
}

function LineItem({ line }: { line: PartnerLine }) {
  const packages = usePartnerPackages();
  const renew = useRenewLine();
  const switchLine = useSwitchLine();
  const key = useRef(globalThis.crypto.randomUUID());
  const [asking, setAsking] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const made = line.status === "done";
  const cost = packages.data?.find((p) => p.name === line.package_name)?.credits ?? line.cost;
  const credits = `${cost} credit${cost === 1 ? "" : "s"}`;
  const busy = renew.isPending || switchLine.isPending;

  const onRenew = async () => {
    setSaid(null);
    try {
      const renewed = await renew.mutateAsync({ id: line.id, key: key.current });
      key.current = globalThis.crypto.randomUUID();
      setAsking(false);
      setSaid({
        ok: true,
        text: `Renewed${renewed.expires_at ? `: ${line.name}'s line now runs until ${formatDate(renewed.expires_at)}` : ""}.`,
      });
    } catch (error) {
      // a refusal is final for this key; a lost answer keeps it, so pressing again is the same renewal
      if (error instanceof ApiError && error.status < 500) key.current = globalThis.crypto.randomUUID();
      setSaid({ ok: false, text: error instanceof Error ? error.message : "The line was not renewed. Please try again." });
    }
  };
  const onSwitch = async (to: "off" | "on") => {
    setSaid(null);
    try {
      await switchLine.mutateAsync({ id: line.id, to });
      setSaid({ ok: true, text: to === "off" ? "Switched off: it stops working until you switch it on." : "Switched on again." });
    } catch (error) {
      setSaid({ ok: false, text: error instanceof Error ? error.message : "That did not work. Please try again." });
    }
  };

  return (
    <li className="flex flex-col gap-2 rounded-xl border border-line p-3 text-sm">
      <p className="font-semibold text-ink">
        {line.name} · {line.package_name}
        {line.switched_off ? <span className="ml-2 font-normal text-warn">Switched off</span> : null}
      </p>
      {made ? (
        <p className="font-mono break-all text-ink-muted">
          {line.server_url} · {line.username} · {line.password}
          {line.expires_at ? ` · until ${formatDate(line.expires_at)}` : ""}
        </p>
      ) : (
        <p className="text-bad">{line.error || "Not made."}</p>
      )}
      {said ? (
        <p role={said.ok ? "status" : "alert"} className={said.ok ? "text-ok" : "text-bad"}>
          {said.text}
        </p>
      ) : null}
      {made ? (
        <div className="flex flex-wrap gap-2">
          {asking ? (
            <>
              <Button size="sm" onClick={onRenew} disabled={busy}>
                {renew.isPending ? "Renewing..." : `Yes, renew for ${credits}`}
              </Button>
              <Button size="sm" variant="outline" onClick={() => setAsking(false)} disabled={busy}>
                Cancel
              </Button>
            </>
          ) : (
            <Button size="sm" variant="outline" onClick={() => setAsking(true)} disabled={busy}>
              Renew ({credits})
            </Button>
          )}
          {line.switched_off ? (
            <Button size="sm" variant="outline" onClick={() => onSwitch("on")} disabled={busy}>
              Switch on
            </Button>
          ) : (
            <Button size="sm" variant="outline" onClick={() => onSwitch("off")} disabled={busy}>
              Switch off
            </Button>
          )}
        </div>
      ) : null}
    </li>
  );
}
