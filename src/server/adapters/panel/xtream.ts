// The Xtream Codes family's reseller API (XUI.one, XC_VM and compatible panels):
//   GET|POST {PANEL_API_URL}?api_key={key}&action={action}; writes are form-encoded POSTs;
//   answers {"status":"STATUS_SUCCESS","data":...} or {"status":"STATUS_<ERROR>","error":"..."}.
// Reads are retried on network errors; a write is retried here only when the connection was
// refused (the panel never saw it): a write that timed out, broke off or got a 5xx may have
// happened. The provisioning worker sends such a create again only after findLine has looked
// for the line under the job's own username (get_lines' search), so it is never made twice.
import { normaliseMac } from "@/shared/device-lines";
import type * as Contract from "./panel";
import { PANEL_STATUS_MESSAGES, PanelError } from "./panel";

export interface XtreamOptions {
  apiUrl: string;
  apiKey: string;
  timeoutMs?: number;
  /** waits before each retry of a read (tests shorten them) */
  retryDelaysMs?: number[];
  /** the largest answer read (default 50 MB); a larger one is a BAD_ANSWER */
  maxAnswerBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRY_DELAYS_MS = [300, 1_000];
/** how much of an answer is kept as a sample (on an error, for the owner and the logs); answers are parsed whole */
const ANSWER_KEEP = 2_000;
/** the largest answer read: 2,000 lines are about 0.5 MB, so this is room for a hundred times that */
const DEFAULT_MAX_ANSWER_BYTES = 50 * 1024 * 1024;
/** get_lines page size (the panel's most) and how many lines we read at most */
const PAGE = 1_000;
const LIST_MAX = 200_000;

type Json = Record<string, unknown>;
type Form = Record<string, string | string[]>;

const num = (v: unknown, fallback = 0) => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : fallback;
};
const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const bool = (v: unknown) => v === true || v === 1 || v === "1" || v === "true";

export function toPanelLine(data: Json): Contract.PanelLine {
  const exp = num(data.exp_date, 0);
  return {
    id: str(data.id),
    username: str(data.username),
    password: str(data.password),
    expires_at: exp > 0 ? new Date(exp * 1000) : null,
    notes: str(data.reseller_notes),
    // Panels answer 'enabled' on create and 'admin_enabled'/'enabled' on lists.
    enabled: data.enabled === undefined ? bool(data.admin_enabled ?? 1) : bool(data.enabled),
    max_connections: num(data.max_connections, 1),
  };
}

/** The reseller API's actions for each kind of device line, and the field that is the device's id. */
const DEVICE_ACTIONS = {
  mag: { create: "create_mag", edit: "edit_mag", enable: "enable_mag", disable: "disable_mag", list: "get_mags", id: "mag_id" },
  enigma2: {
    create: "create_enigma",
    edit: "edit_enigma",
    enable: "enable_enigma",
    disable: "disable_enigma",
    list: "get_enigmas",
    id: "device_id",
  },
} as const;

/** A MAG / Enigma2 line: the device row (with its line under `user` on create) as one PanelLine, keyed by the device's id. */
export function toDeviceLine(data: Json, type: "mag" | "enigma2"): Contract.PanelLine {
  const user = data.user && typeof data.user === "object" && !Array.isArray(data.user) ? (data.user as Json) : {};
  const line = toPanelLine({ ...user, ...data, id: data[DEVICE_ACTIONS[type].id] ?? data.id });
  return { ...line, type, mac: normaliseMac(str(data.mac)) };
}

/** A sub-reseller row of get_users (or create_user's answer). */
export function toPanelReseller(data: Json): Contract.PanelReseller {
  return {
    id: str(data.id),
    username: str(data.username),
    email: str(data.email),
    credits: num(data.credits),
    // XC_VM keeps a user's switch as `status` (1 on); some panels answer `enabled`
    enabled: bool(data.enabled ?? data.status ?? 1),
    notes: str(data.notes ?? data.reseller_notes),
  };
}

function toPanelPackage(data: Json): Contract.PanelPackage {
  return {
    id: str(data.id),
    name: str(data.package_name ?? data.name),
    is_trial: bool(data.is_trial),
    is_official: bool(data.is_official),
    official_credits: num(data.official_credits),
    trial_credits: num(data.trial_credits),
    official_duration: num(data.official_duration),
    official_duration_in: str(data.official_duration_in),
    trial_duration: num(data.trial_duration),
    trial_duration_in: str(data.trial_duration_in),
    max_connections: num(data.max_connections, 1),
    bouquets: bouquetIds(data.bouquets),
  };
}

/** A package's bouquets: the panel keeps them as JSON text ('[1,2,3]') or answers an array. */
function bouquetIds(value: unknown): string[] {
  let list = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? list.map(str).filter(Boolean) : [];
}

export function createXtreamPanel(options: XtreamOptions): Contract.PanelAdapter {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const mask = (text: string) => text.split(options.apiKey).join("***");

  function urlFor(action: string, query: Record<string, string> = {}): string {
    const url = new URL(options.apiUrl);
    url.searchParams.set("api_key", options.apiKey);
    url.searchParams.set("action", action);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url.toString();
  }

  /** A form-encoded body; a list goes as repeated `name[]` fields (bouquets_selected[]). */
  function encode(form: Form): string {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(form)) {
      if (Array.isArray(value)) for (const item of value) body.append(`${key}[]`, item);
      else body.append(key, value);
    }
    return body.toString();
  }

  const timedOutError = (retryable: boolean) =>
    new PanelError(`The panel did not answer within ${Math.round(timeoutMs / 1000)} s.`, "TIMEOUT", retryable);

  async function once(action: string, form: Form | null, query?: Record<string, string>): Promise<Json> {
    let response: Response;
    try {
      response = await fetch(urlFor(action, query), {
        method: form ? "POST" : "GET",
        headers: form
          ? { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }
          : { accept: "application/json" },
        body: form ? encode(form) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? "";
      const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
      if (timedOut) throw timedOutError(!form);
      // A refused connection never reached the panel: safe to send again, even a write.
      throw new PanelError(`The panel could not be reached (${cause || "network error"}).`, "NETWORK", !form || cause === "ECONNREFUSED");
    }
    const raw = await readBounded(response, action, maxBytes, !form, timedOutError);
    // Parsed whole; only the sample kept with an error is cut (and the key masked in it).
    const sample = mask(raw.slice(0, ANSWER_KEEP));
    // A 5xx may come after the panel did the work: like a timeout, a write is not resent blindly.
    if (response.status >= 500) throw new PanelError(`The panel answered HTTP ${response.status}.`, "HTTP_5XX", !form, sample);
    const size = `${Buffer.byteLength(raw).toLocaleString("en-US")} bytes`;
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new PanelError(
        `The panel's answer to ${action} (HTTP ${response.status}, ${size}) is not JSON${raw.trimEnd().match(/^[[{]/) ? ": it is cut off or broken" : ""}.`,
        "BAD_ANSWER",
        false,
        sample,
      );
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      throw new PanelError(`The panel's answer to ${action} (${size}) is not the reseller API's shape.`, "BAD_ANSWER", false, sample);
    }
    const answer = body as Json;
    const status = str(answer.status);
    if (status === "STATUS_SUCCESS") return answer;
    const known = PANEL_STATUS_MESSAGES[status];
    if (known) throw new PanelError(known.message, status, known.retryable, sample);
    const detail = str(answer.error) || status || `HTTP ${response.status}`;
    throw new PanelError(`The panel refused: ${mask(detail).slice(0, 200)}`, status || "UNKNOWN", false, sample);
  }

  async function call(action: string, form: Form | null = null, query?: Record<string, string>): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(action, form, query);
      } catch (error) {
        const network =
          error instanceof PanelError && (error.status === "NETWORK" || error.status === "TIMEOUT" || error.status === "HTTP_5XX");
        if (!network || !error.retryable || attempt >= delays.length) throw error;
        await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
      }
    }
  }

  /**
   * Every row of a list action, a page of 1,000 (the panel's most) at a time. XC_VM answers
   * `recordsTotal` with each page: reading stops once that many rows are in (or at a short page,
   * for a panel that does not say). A panel that ignores `start` answers the same page again: that
   * is an error, not a loop that reads forever.
   */
  async function listAll<T>(action: string, map: (row: Json) => T): Promise<T[]> {
    const all: T[] = [];
    let firstOfLast = "";
    for (let start = 0; ; start += PAGE) {
      if (start >= LIST_MAX) {
        throw new PanelError(`The panel listed more than ${LIST_MAX.toLocaleString("en-US")} rows for ${action}.`, "BAD_ANSWER", false);
      }
      const answer = await call(action, null, { start: String(start), limit: String(PAGE) });
      const rows = listOf(answer);
      const first = rows.length ? JSON.stringify(rows[0]) : "";
      if (start > 0 && first && first === firstOfLast) {
        throw new PanelError(
          `The panel answered the same page of ${action} again at row ${start.toLocaleString("en-US")}: it does not page (start is ignored).`,
          "BAD_ANSWER",
          false,
        );
      }
      firstOfLast = first;
      all.push(...rows.map(map));
      const total = num(answer.recordsTotal ?? answer.recordsFiltered, Number.NaN);
      if (rows.length === 0 || (Number.isFinite(total) ? all.length >= total : rows.length < PAGE)) break;
    }
    return all;
  }

  const dataOf = (answer: Json): Json => {
    const data = answer.data;
    if (!data || typeof data !== "object" || Array.isArray(data)) {
      throw new PanelError("The panel's answer has no line data.", "BAD_ANSWER", false, mask(JSON.stringify(answer).slice(0, ANSWER_KEEP)));
    }
    return data as Json;
  };
  const listOf = (answer: Json): Json[] => {
    const data = answer.data;
    if (Array.isArray(data)) return data as Json[];
    if (data && typeof data === "object") return Object.values(data as Json) as Json[];
    return [];
  };

  return {
    mode: "xtream",
    async userInfo() {
      const answer = await call("user_info");
      const data = (answer.data ?? {}) as Json;
      return { credits: data.credits === undefined ? null : num(data.credits) };
    },
    async packages() {
      return listOf(await call("packages")).map(toPanelPackage);
    },
    async lines() {
      // Logins, MAG boxes and Enigma2 receivers are listed apart (get_lines leaves the boxes out).
      return [
        ...(await listAll("get_lines", toPanelLine)),
        ...(await listAll("get_mags", (row) => toDeviceLine(row, "mag"))),
        ...(await listAll("get_enigmas", (row) => toDeviceLine(row, "enigma2"))),
      ];
    },
    async findLine(key: string, type?: Contract.LineType) {
      // The panel's search matches anywhere in the username, password, MAC, notes, ...: keep exact hits only.
      if (type === "mag" || type === "enigma2") {
        const mac = normaliseMac(key);
        const rows = listOf(await call(DEVICE_ACTIONS[type].list, null, { "search[value]": mac, start: "0", limit: "50" }));
        return rows.map((row) => toDeviceLine(row, type)).find((line) => line.mac === mac) ?? null;
      }
      const rows = listOf(await call("get_lines", null, { "search[value]": key, start: "0", limit: "50" })).map(toPanelLine);
      return rows.find((line) => line.username === key) ?? rows.find((line) => (line.notes ?? "").includes(key)) ?? null;
    },
    async createLine(input: Contract.CreateLineInput) {
      if (input.type === "mag" || input.type === "enigma2") {
        const answer = await call(DEVICE_ACTIONS[input.type].create, {
          package: input.package,
          trial: input.trial ? "1" : "0",
          mac: input.mac ?? "",
          reseller_notes: [input.contact, input.notes].filter(Boolean).join(" · "),
          ...(input.bouquets?.length ? { bouquets_selected: input.bouquets } : {}),
          ...(input.member_id ? { member_id: input.member_id } : {}),
        });
        const line = toDeviceLine(dataOf(answer), input.type);
        if (!line.id)
          throw new PanelError("The panel made the device line but did not say its id.", "BAD_ANSWER", false, JSON.stringify(answer));
        return line;
      }
      const answer = await call("create_line", {
        package: input.package,
        trial: input.trial ? "1" : "0",
        contact: input.contact,
        reseller_notes: input.notes,
        ...(input.bouquets?.length ? { bouquets_selected: input.bouquets } : {}),
        ...(input.username ? { username: input.username } : {}),
        ...(input.password ? { password: input.password } : {}),
        ...(input.member_id ? { member_id: input.member_id } : {}),
      });
      const line = toPanelLine(dataOf(answer));
      if (!line.id || !line.username) {
        throw new PanelError("The panel created a line but did not say its id and username.", "BAD_ANSWER", false, JSON.stringify(answer));
      }
      return line;
    },
    async editLine(input) {
      const device = input.type === "mag" || input.type === "enigma2" ? input.type : null;
      const answer = await call(device ? DEVICE_ACTIONS[device].edit : "edit_line", {
        id: input.id,
        package: input.package,
        ...(input.bouquets?.length ? { bouquets_selected: input.bouquets } : {}),
      });
      // Not every panel answers the line after an edit: an unknown expiry stays unknown (null).
      const data = answer.data && typeof answer.data === "object" && !Array.isArray(answer.data) ? (answer.data as Json) : {};
      if (device) return toDeviceLine({ exp_date: null, ...data, [DEVICE_ACTIONS[device].id]: input.id }, device);
      return toPanelLine({ exp_date: null, ...data, id: input.id });
    },
    async enableLine(id, type) {
      await call(type === "mag" || type === "enigma2" ? DEVICE_ACTIONS[type].enable : "enable_line", { id });
    },
    async disableLine(id, type) {
      await call(type === "mag" || type === "enigma2" ? DEVICE_ACTIONS[type].disable : "disable_line", { id });
    },
    async clearIspLock(id, type) {
      await call(type === "mag" || type === "enigma2" ? DEVICE_ACTIONS[type].edit : "edit_line", { id, isp_clear: "1" });
    },
    async changeMac({ id, type, mac }) {
      // No package: the panel charges nothing and keeps the line's time; the device row takes the new MAC.
      await call(DEVICE_ACTIONS[type].edit, { id, mac });
    },
    async createUser(input: Contract.CreateUserInput) {
      const answer = await call("create_user", {
        username: input.username,
        password: input.password,
        email: input.email,
        member_group_id: input.member_group_id,
        notes: input.notes,
      });
      const data = answer.data && typeof answer.data === "object" && !Array.isArray(answer.data) ? (answer.data as Json) : {};
      const made = toPanelReseller({ username: input.username, email: input.email, ...data });
      if (made.id) return made;
      // A panel that answers only the status: the new reseller is found by its username.
      const found = (await listAll("get_users", toPanelReseller)).find((user) => user.username === input.username);
      if (!found) throw new PanelError("The panel made the reseller but did not say its id.", "BAD_ANSWER", false, JSON.stringify(answer));
      return found;
    },
    async adjustCredits({ id, credits, note }) {
      await call("adjust_credits", { id, credits: String(credits), note });
    },
    async users() {
      return listAll("get_users", toPanelReseller);
    },
  };
}

/**
 * The whole body as text, read chunk by chunk so that an answer past `maxBytes` is refused
 * before it is all in memory. A body that stops before its end (the connection broke, the
 * timeout struck mid-answer) is a NETWORK or TIMEOUT failure like one that never began.
 */
async function readBounded(
  response: Response,
  action: string,
  maxBytes: number,
  /** a read may be asked again; a write may have been done */
  retryable: boolean,
  timedOutError: (retryable: boolean) => PanelError,
): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  const tooLarge = () =>
    new PanelError(
      `The panel's answer to ${action} is larger than ${maxBytes >= 1_048_576 ? `${Math.round(maxBytes / 1_048_576)} MB` : `${maxBytes.toLocaleString("en-US")} bytes`}: not read.`,
      "BAD_ANSWER",
      false,
    );
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (error instanceof PanelError) throw error;
    const name = (error as Error).name;
    if (name === "TimeoutError" || name === "AbortError") throw timedOutError(retryable);
    throw new PanelError(`The panel's answer to ${action} broke off after ${bytes} bytes.`, "NETWORK", retryable);
  }
  return text + decoder.decode();
}
