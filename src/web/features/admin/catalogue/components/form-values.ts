// What a catalogue form's values become in its body: on an edit only the changed fields, and the
// whole numbers typed as text.

/** The fields whose value differs from the start (compared as JSON), for a PATCH. */
export function changedFields<T extends Record<string, unknown>>(initial: T, values: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(values) as (keyof T)[]) {
    if (JSON.stringify(values[key]) !== JSON.stringify(initial[key])) changed[key] = values[key];
  }
  return changed;
}

/** '12' → 12, '' → undefined, 'x' → 'x' (left for the schema to refuse with its message). */
export function wholeNumber(value: string): number | string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}
