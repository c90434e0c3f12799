// A draft of the order form in sessionStorage, so an accidental reload loses nothing typed.
// It lives only as long as the tab (personal details don't linger on a shared computer), is
// cleared when the order is sent, and never holds the start-now consent: that is given afresh.

export const DRAFT_KEY = "order-form-draft";

export interface OrderDraft {
  name: string;
  email: string;
  whatsapp: string;
  package: string;
  duration: string;
  device: string;
  internetPlatform: string;
  otherPlatform: string;
  internetSpeed: string;
  marketingOptIn: boolean;
  /** the device the line is for (m3u: an app), and a box's MAC */
  lineType: string;
  mac: string;
}

export const EMPTY_DRAFT: OrderDraft = Object.freeze({
  name: "",
  email: "",
  whatsapp: "",
  package: "",
  duration: "",
  device: "",
  internetPlatform: "",
  otherPlatform: "",
  internetSpeed: "",
  marketingOptIn: false,
  lineType: "m3u",
  mac: "",
});

function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    // Storage can be switched off (some private modes): the form still works without a draft.
    return null;
  }
}

/** The saved draft over the empty form; anything malformed is ignored field by field. */
export function loadDraft(): OrderDraft {
  const draft: OrderDraft = { ...EMPTY_DRAFT };
  try {
    const raw = storage()?.getItem(DRAFT_KEY);
    const saved = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    if (!saved || typeof saved !== "object") return draft;
    for (const key of Object.keys(EMPTY_DRAFT) as (keyof OrderDraft)[]) {
      const value = saved[key];
      if (typeof value === typeof EMPTY_DRAFT[key]) (draft as unknown as Record<string, unknown>)[key] = value;
    }
  } catch {
    // A draft that does not parse is no draft.
  }
  return draft;
}

export function saveDraft(values: Partial<Record<keyof OrderDraft, unknown>>): void {
  const draft: Record<string, unknown> = {};
  let empty = true;
  for (const key of Object.keys(EMPTY_DRAFT) as (keyof OrderDraft)[]) {
    const value = values[key];
    if (typeof value !== typeof EMPTY_DRAFT[key]) continue;
    draft[key] = value;
    if (value !== EMPTY_DRAFT[key]) empty = false;
  }
  try {
    if (empty) storage()?.removeItem(DRAFT_KEY);
    else storage()?.setItem(DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // Full or blocked storage: the draft is a convenience, not a requirement.
  }
}

export function clearDraft(): void {
  try {
    storage()?.removeItem(DRAFT_KEY);
  } catch {
    // nothing to clear
  }
}
