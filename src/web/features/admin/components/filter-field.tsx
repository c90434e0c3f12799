// Labelled controls for a list's filters bar.
import { type ReactNode, useId } from "react";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { cn } from "@/web/lib/cn";

export interface FilterOption {
  value: string;
  label: string;
}

interface FilterProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}

/** A filter's small label over its control (given its id). */
function FilterField({ label, className, control }: { label: string; className?: string; control: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5 sm:w-44", className)}>
      <label htmlFor={id} className="text-xs font-medium text-ink-muted">
        {label}
      </label>
      {control(id)}
    </div>
  );
}

export function FilterSelect({
  label,
  value,
  onChange,
  options,
  allLabel = "All",
  className,
}: FilterProps & {
  options: readonly FilterOption[];
  /** the empty choice (no filter) */
  allLabel?: string;
}) {
  return (
    <FilterField
      label={label}
      className={className}
      control={(id) => (
        <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{allLabel}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    />
  );
}

/** value: YYYY-MM-DD or '' */
export function FilterDate({ label, value, onChange, className }: FilterProps) {
  return (
    <FilterField
      label={label}
      className={className}
      control={(id) => <Input id={id} type="date" value={value} onChange={(event) => onChange(event.target.value)} />}
    />
  );
}
