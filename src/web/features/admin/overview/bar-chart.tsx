// A small bar chart in plain SVG (no chart library in the admin chunk): one bar per day, the
// highest value labelled, each bar titled with its day and value. A visually hidden table
// gives screen readers the same numbers.
import { useId } from "react";
import { formatDate } from "@/shared/dates";

export interface DayValue {
  /** YYYY-MM-DD in South Africa */
  date: string;
  value: number;
}

export interface BarChartProps {
  title: string;
  series: DayValue[];
  /** how a value reads (e.g. formatRand) */
  format?: (value: number) => string;
  /** tailwind fill class of the bars */
  barClassName?: string;
  /** shown instead of the bars when every day is zero */
  emptyText?: string;
}

const WIDTH = 600;
const HEIGHT = 160;
const GAP = 3;

/** 'YYYY-MM-DD' as a date label; noon UTC keeps it on the same day in South Africa. */
const dayLabel = (date: string) => formatDate(`${date}T12:00:00Z`);

export function BarChart({
  title,
  series,
  format = String,
  barClassName = "fill-accent",
  emptyText = "Nothing in these days yet.",
}: BarChartProps) {
  const titleId = useId();
  const max = Math.max(0, ...series.map((d) => d.value));
  const total = series.reduce((sum, d) => sum + d.value, 0);
  const barWidth = series.length ? (WIDTH - GAP * (series.length - 1)) / series.length : 0;
  const first = series[0];
  const last = series[series.length - 1];

  return (
    <figure aria-labelledby={titleId} className="flex flex-col gap-3 rounded-card border border-line bg-surface p-5">
      <figcaption id={titleId} className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold text-ink">{title}</span>
        <span className="text-sm text-ink-muted tabular">
          {format(total)} in {series.length} days
        </span>
      </figcaption>
      {max === 0 ? (
        <p className="flex h-40 items-center justify-center rounded-xl border border-dashed border-line text-sm text-ink-muted">
          {emptyText}
        </p>
      ) : (
        <>
          <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-40 w-full" aria-hidden="true">
            <line x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-line" strokeWidth="1" />
            {series.map((day, index) => {
              const height = max > 0 ? Math.max((day.value / max) * (HEIGHT - 8), day.value > 0 ? 2 : 0) : 0;
              return (
                <rect
                  key={day.date}
                  x={index * (barWidth + GAP)}
                  y={HEIGHT - height}
                  width={barWidth}
                  height={height}
                  rx="2"
                  className={barClassName}
                >
                  <title>{`${dayLabel(day.date)}: ${format(day.value)}`}</title>
                </rect>
              );
            })}
          </svg>
          <div className="flex justify-between text-xs text-ink-subtle tabular" aria-hidden="true">
            <span>{first ? dayLabel(first.date) : ""}</span>
            <span>Highest: {format(max)}</span>
            <span>{last ? dayLabel(last.date) : ""}</span>
          </div>
          {/* The figures for screen readers. In a sr-only div: a table will not shrink to sr-only's
              1 px, and its full width would widen a narrow (or zoomed) page. */}
          <div className="sr-only">
            <table>
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {series.map((day) => (
                  <tr key={day.date}>
                    <td>{dayLabel(day.date)}</td>
                    <td>{format(day.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </figure>
  );
}
