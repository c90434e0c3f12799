// One component's 90-day history: a bar per South African day, coloured by the worst status
// seen that day (grey: no data). Screen readers read each day as a list item; sighted users
// get the same words under the bars when they hover, tap or arrow through them.
import { type KeyboardEvent, useState } from "react";
import type { StatusDay } from "@/shared/api";
import { cn } from "@/web/lib/cn";
import { DAY_COLOURS, dayLabel } from "./status-format";

export interface HistoryBarsProps {
  /** the component's name, for the list's label */
  name: string;
  /** oldest first */
  days: readonly StatusDay[];
}

export function HistoryBars({ name, days }: HistoryBarsProps) {
  const [active, setActive] = useState<number | null>(null);
  // One tab stop for the whole row; arrows move between days (roving tabindex).
  const [focusIndex, setFocusIndex] = useState(Math.max(0, days.length - 1));
  const shown = active === null ? null : days[active];

  const move = (event: KeyboardEvent<HTMLOListElement>) => {
    const last = days.length - 1;
    const next =
      event.key === "ArrowLeft"
        ? Math.max(0, focusIndex - 1)
        : event.key === "ArrowRight"
          ? Math.min(last, focusIndex + 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setFocusIndex(next);
    setActive(next);
    (event.currentTarget.children[next] as HTMLElement | undefined)?.focus();
  };

  return (
    <div className="flex flex-col gap-2">
      <ol
        aria-label={`${name}: the last ${days.length} days`}
        className="flex h-9 items-stretch gap-px sm:gap-0.5"
        onKeyDown={move}
        onPointerLeave={() => setActive(null)}
      >
        {days.map((day, index) => (
          <li
            key={day.date}
            data-day={day.date}
            data-status={day.status ?? "none"}
            tabIndex={index === focusIndex ? 0 : -1}
            title={dayLabel(day)}
            onPointerEnter={() => setActive(index)}
            onPointerDown={() => setActive(index)}
            onFocus={() => {
              setFocusIndex(index);
              setActive(index);
            }}
            onBlur={() => setActive(null)}
            className={cn(
              "min-w-0 flex-1 rounded-[2px] transition-opacity focus-visible:outline-offset-2",
              DAY_COLOURS[day.status ?? "none"],
              active !== null && active !== index && "opacity-60",
            )}
          >
            <span className="sr-only">{dayLabel(day)}</span>
          </li>
        ))}
      </ol>
      <div className="flex items-center justify-between gap-3 text-xs text-ink-subtle">
        <span>{days.length} days ago</span>
        <span aria-hidden="true" className={cn("text-center tabular", shown ? "text-ink" : "text-ink-muted")}>
          {shown ? dayLabel(shown) : null}
        </span>
        <span>Today</span>
      </div>
    </div>
  );
}
