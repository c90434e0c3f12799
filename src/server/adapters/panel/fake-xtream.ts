// A local stand-in for an Xtream-family reseller API (XUI.one, XC_VM), for tests only. It
// speaks the real protocol: `?api_key=&action=`, form-encoded writes, {"status":"STATUS_*"}
// answers; it checks the key, charges credits per package, extends a line from its expiry (or
// from now once lapsed), refuses with the panel's own statuses, and can be made slow, down or
// out of credits to play the failures a reseller meets — including an answer lost after the work
// was done (a timeout, a 5xx), the case that must never become a second line.
// It holds a real reseller's panel (issue 42): 2,200 lines already there (2,000 logins, 150 MAG
// boxes, 50 Enigma2 receivers, none of them ours), 47 packages on 68 bouquets, and lists a page
// at a time with `recordsTotal`, as XC_VM does. Written from the panel's protocol, not from our
// adapter: it imports nothing of the product.
// Sub-resellers (issue 45), as XC_VM's reseller API has them: create_user makes a reseller owned
// by the caller (STATUS_EXISTS_USERNAME on a taken username), get_users lists them with their
// credits, adjust_credits moves credits between the caller and one of them (negative: back),
// refusing with STATUS_INSUFFICIENT_CREDITS when either side would go below 0, and member_id on
// create_line / create_mag / create_enigma gives the line to one of them while the caller pays.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeLine {
  id: string;
  username: string;
  password: string;
  package: string;
  trial: boolean;
  exp_date: number;
  enabled: boolean;
  contact: string;
  reseller_notes: string;
  max_connections: number;
  /** the bouquets the line gets (the package's, or the subset sent as bouquets_selected[]) */
  bouquets?: string[];
  /** a device line: mag | enigma2, keyed by its MAC, with its own device id (mag_id / device_id) */
  type: "m3u" | "mag" | "enigma2";
  mac: string;
  device_id: string;
  /** the sub-reseller the line belongs to (member_id on its create); absent: the caller's own */
  member_id?: string;
}

/** A sub-reseller the caller owns. */
export interface FakeUser {
  id: string;
  username: string;
  password: string;
  email: string;
  member_group_id: string;
  notes: string;
  credits: number;
  status: 0 | 1;
}

/** One adjust_credits the panel carried out (XC_VM's users_credits_logs). */
export interface FakeCreditLog {
  user_id: string;
  credits: number;
  note: string;
}

export interface FakePanelCall {
  method: string;
  action: string;
  form: Record<string, string>;
  /** the query string's fields (the key masked out) */
  query: Record<string, string>;
}

export interface FakeXtreamPanel {
  /** http://127.0.0.1:<port>/panel/reseller/index.php — use as PANEL_API_URL */
  url: string;
  apiKey: string;
  lines: Map<string, FakeLine>;
  /** the caller's sub-resellers, by id */
  users: Map<string, FakeUser>;
  /** every adjust_credits done, oldest first */
  creditLogs: FakeCreditLog[];
  calls: FakePanelCall[];
  credits: number;
  /** answers wait this long (timeouts) */
  delayMs: number;
  /** the next N calls (of `action` when given) answer with this body instead (a panel error, or text that is not JSON) */
  failNext(body: string | Record<string, unknown>, times?: number, action?: string): void;
  /**
   * The next N calls of `action` lose their answer: `when` "after" the panel did the work (the
   * ambiguous case) or "before" (it never did); the answer is a 502 or never comes in time
   * ("timeout": held for `hangMs`, longer than the client waits).
   */
  loseAnswer(action: string, options: { when: "after" | "before"; as: "timeout" | "5xx"; times?: number }): void;
  /** how long a "timeout" answer is held (default 2 s) */
  hangMs: number;
  /** a broken panel that answers the first page whatever `start` asks */
  ignoreStart: boolean;
  /** calls of one action */
  callsOf(action: string): FakePanelCall[];
  /** the lines made through the API (create_line / create_mag / create_enigma), oldest first: not the ones the panel started with */
  made(): FakeLine[];
  close(): Promise<void>;
}

type FakePackage = {
  id: string;
  package_name: string;
  is_trial: 0 | 1;
  is_official: 0 | 1;
  official_credits: number;
  trial_credits: number;
  official_duration: number;
  official_duration_in: "months" | "days" | "hours";
  trial_duration: number;
  trial_duration_in: "hours" | "days";
  max_connections: number;
  /** JSON text, as the panel keeps it */
  bouquets: string;
};

/** 68 bouquets, as a reseller's panel has them: ids 1..68. */
export const FAKE_BOUQUET_COUNT = 68;
const ALL_BOUQUETS = Array.from({ length: FAKE_BOUQUET_COUNT }, (_, i) => i + 1);

const paid = (id: string, name: string, months: number, credits: number, connections: number, bouquets: number[]): FakePackage => ({
  id,
  package_name: name,
  is_trial: 0,
  is_official: 1,
  official_credits: credits,
  trial_credits: 0,
  official_duration: months,
  official_duration_in: "months",
  trial_duration: 0,
  trial_duration_in: "hours",
  max_connections: connections,
  bouquets: JSON.stringify(bouquets),
});
const trialOf = (id: string, name: string, hours: number, connections: number, bouquets: number[]): FakePackage => ({
  ...paid(id, name, 0, 0, connections, bouquets),
  is_trial: 1,
  is_official: 0,
  trial_duration: hours,
  trial_duration_in: "hours",
});

/**
 * The reseller's packages: the three our tests map (1, 3, 9: one and three months, a 24-hour
 * trial, on bouquets 1–3) first, then the 44 others a real panel lists — lengths from one to
 * twelve months, one to four screens, full, sports, VOD, adult and regional line-ups, trials.
 */
export const FAKE_PACKAGES: FakePackage[] = (() => {
  const list: FakePackage[] = [
    paid("1", "1 Month Official", 1, 1, 1, [1, 2, 3]),
    paid("3", "3 Months Official", 3, 3, 1, [1, 2, 3]),
    trialOf("9", "Trial 24h", 24, 1, [1, 2, 3]),
  ];
  const lineups: [string, number[]][] = [
    ["Full", ALL_BOUQUETS.slice(0, 60)],
    ["Sports", [1, 2, 10, 11, 12, 13, 14, 15, 16]],
    ["VOD Only", [40, 41, 42, 43, 44, 45]],
    ["South Africa", [1, 2, 3, 4, 5, 6, 7, 8]],
    ["Adult Add-on", [61, 62, 63, 64, 65, 66, 67, 68]],
  ];
  const lengths: [string, number, number][] = [
    ["1 Month", 1, 1],
    ["3 Months", 3, 3],
    ["6 Months", 6, 5],
    ["12 Months", 12, 9],
  ];
  let id = 10;
  for (const [lineup, bouquets] of lineups) {
    for (const [length, months, credits] of lengths) {
      for (const screens of lineup === "Full" ? [1, 2, 4] : [1, 2]) {
        if (list.length >= 44) break;
        const name = `${lineup} ${length}${screens > 1 ? ` ${screens} Screens` : ""}`;
        list.push(paid(String(id++), name, months, credits * screens, screens, bouquets));
      }
    }
  }
  list.push(trialOf(String(id++), "Trial 48h", 48, 1, ALL_BOUQUETS.slice(0, 60)));
  list.push(trialOf(String(id++), "Trial 3 Days 2 Screens", 72, 2, ALL_BOUQUETS.slice(0, 60)));
  list.push(trialOf(String(id++), "Sports Trial 12h", 12, 1, [1, 2, 10, 11, 12, 13, 14, 15, 16]));
  return list;
})();

/** How many lines the panel already has when it starts (a reseller's own, none of them ours). */
export const FAKE_EXISTING = { m3u: 2_000, mag: 150, enigma2: 50 } as const;

/** A small repeatable random sequence, so every run holds the same panel. */
function sequence(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const FIRST_NAMES = ["Thabo", "Lerato", "Sipho", "Naledi", "Johan", "Anika", "Pieter", "Zanele", "Kagiso", "Ayesha", "Mandla", "Chantal"];
const SURNAMES = ["Mokoena", "Naidoo", "van der Merwe", "Dlamini", "Botha", "Pillay", "Khumalo", "Smith", "Ndlovu", "Jacobs"];

/** The lines a reseller already has on the panel: logins, MAG boxes and Enigma2 receivers, some lapsed, some switched off. */
function existingLines(counts: { m3u: number; mag: number; enigma2: number }, now: number): FakeLine[] {
  const random = sequence(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const paidPackages = FAKE_PACKAGES.filter((p) => !p.is_trial);
  const lines: FakeLine[] = [];
  let n = 0;
  const make = (type: FakeLine["type"]) => {
    n++;
    const pkg = pick(paidPackages);
    const first = pick(FIRST_NAMES);
    const who = `${first} ${pick(SURNAMES)}`;
    const phone = `+2782${String(1_000_000 + n).slice(1)}`;
    const hex = (v: number) => v.toString(16).toUpperCase().padStart(2, "0");
    // MAG boxes all start 00:1A:79; these sit at F0:xx:xx, apart from the MACs tests choose.
    const mac = type === "m3u" ? "" : ["00", "1A", "79", "F0", hex((n >> 8) & 255), hex(n & 255)].join(":");
    lines.push({
      id: String(100_000 + n),
      username: type === "m3u" ? `${first.toLowerCase()}${n}` : `box${100_000 + n}`.padEnd(32, "x"),
      password: `pw${Math.floor(random() * 1e9).toString(36)}`,
      package: pkg.id,
      trial: false,
      // from two months lapsed to a year ahead
      exp_date: now + Math.floor((random() * 425 - 60) * 86_400),
      enabled: random() > 0.05,
      contact: `${who}, ${phone}`,
      reseller_notes: `${who} · ${phone}`,
      max_connections: pkg.max_connections,
      bouquets: JSON.parse(pkg.bouquets).map(String),
      type,
      mac,
      device_id: type === "m3u" ? "" : String(200_000 + n),
    });
  };
  for (let i = 0; i < counts.m3u; i++) make("m3u");
  for (let i = 0; i < counts.mag; i++) make("mag");
  for (let i = 0; i < counts.enigma2; i++) make("enigma2");
  return lines;
}

function addMonthsUnix(from: number, months: number): number {
  const d = new Date(from * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return Math.floor(d.getTime() / 1000);
}

export interface FakeXtreamOptions {
  apiKey?: string;
  credits?: number;
  /** the lines the panel holds before our first call (default FAKE_EXISTING: 2,200, a real reseller's size) */
  existing?: { m3u: number; mag: number; enigma2: number };
}

export async function startFakeXtreamPanel(options: FakeXtreamOptions = {}): Promise<FakeXtreamPanel> {
  const apiKey = options.apiKey ?? "fake-panel-key-123";
  const lines = new Map<string, FakeLine>(
    existingLines(options.existing ?? FAKE_EXISTING, Math.floor(Date.now() / 1000)).map((line) => [line.id, line]),
  );
  const seeded = new Set(lines.keys());
  const calls: FakePanelCall[] = [];
  const users = new Map<string, FakeUser>();
  const creditLogs: FakeCreditLog[] = [];
  let nextUserId = 500;
  const failures: { body: string; action?: string }[] = [];
  const lost: { action: string; when: "after" | "before"; as: "timeout" | "5xx" }[] = [];
  let nextId = 1000;

  const state = {
    credits: options.credits ?? 100,
    delayMs: 0,
    hangMs: 2_000,
    ignoreStart: false,
  };

  const answer = (res: ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const lineData = (l: FakeLine) => ({
    id: l.id,
    username: l.username,
    password: l.password,
    exp_date: String(l.exp_date),
    max_connections: l.max_connections,
    enabled: l.enabled ? 1 : 0,
    is_trial: l.trial ? 1 : 0,
    reseller_notes: l.reseller_notes,
    ...(l.member_id ? { member_id: l.member_id } : {}),
  });
  const deviceData = (l: FakeLine) => ({
    ...lineData(l),
    id: l.id,
    [l.type === "mag" ? "mag_id" : "device_id"]: l.device_id,
    mac: l.mac,
  });
  const userData = (u: FakeUser) => ({
    id: u.id,
    username: u.username,
    email: u.email,
    member_group_id: u.member_group_id,
    notes: u.notes,
    credits: u.credits,
    status: u.status,
  });
  const DEVICE_OF: Record<string, "mag" | "enigma2"> = {
    create_mag: "mag",
    edit_mag: "mag",
    enable_mag: "mag",
    disable_mag: "mag",
    get_mags: "mag",
    create_enigma: "enigma2",
    edit_enigma: "enigma2",
    enable_enigma: "enigma2",
    disable_enigma: "enigma2",
    get_enigmas: "enigma2",
  };
  const deviceLine = (type: "mag" | "enigma2", id: string) => [...lines.values()].find((l) => l.type === type && l.device_id === id);
  /** the answer to a call that lost it: a 502, or one that comes too late */
  async function loseIt(res: ServerResponse, how: "timeout" | "5xx") {
    if (how === "timeout") await new Promise((resolve) => setTimeout(resolve, state.hangMs));
    if (!res.writableEnded && !res.destroyed) answer(res, "<html>502 Bad Gateway</html>", 502);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (url.pathname !== "/panel/reseller/index.php") return answer(res, { status: "STATUS_FAILURE", error: "not found" }, 404);
    const action = url.searchParams.get("action") ?? "";
    // A list comes as repeated `name[]` fields (bouquets_selected[]): kept joined with commas.
    const form: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(raw)) form[key] = key.endsWith("[]") && form[key] ? `${form[key]},${value}` : value;
    // Like the panel's request object: the query and the form together (form wins).
    const params: Record<string, string> = { ...Object.fromEntries(url.searchParams), ...form };
    // Recorded on arrival: a call the client gave up waiting for still reached the panel.
    calls.push({
      method: req.method ?? "GET",
      action,
      form,
      query: Object.fromEntries([...url.searchParams].filter(([key]) => key !== "api_key")),
    });
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (url.searchParams.get("api_key") !== apiKey) return answer(res, { status: "STATUS_FAILURE", error: "Invalid API key" }, 401);
    const failing = failures.findIndex((f) => f.action === undefined || f.action === action);
    if (failing >= 0) return answer(res, failures.splice(failing, 1)[0].body);
    const losing = lost.findIndex((l) => l.action === action);
    const lose = losing >= 0 ? lost.splice(losing, 1)[0] : null;
    if (lose?.when === "before") return loseIt(res, lose.as);
    const result = respond(req.method ?? "GET", action, form, params);
    // With a lost answer the work is done all the same; only the answer goes missing.
    if (lose) return loseIt(res, lose.as);
    return answer(res, result.body, result.status);
  }

  /**
   * One page of a list, as XC_VM answers get_lines / get_mags / get_enigmas: `limit` rows (50
   * unless asked, at most 1,000) from `start`, with `recordsTotal` (and `recordsFiltered`, the
   * count after the search) beside the data.
   */
  function page<T>(found: T[], params: Record<string, string>, shape: (row: T) => unknown) {
    const start = state.ignoreStart ? 0 : Math.max(0, Number(params.start) || 0);
    const limit = Math.min(Math.max(1, Number(params.limit) || 50), 1_000);
    const total = found.length;
    return {
      status: "STATUS_SUCCESS",
      recordsTotal: total,
      recordsFiltered: total,
      data: found.slice(start, start + limit).map(shape),
    };
  }

  /** What the panel does and answers for one call. */
  function respond(method: string, action: string, form: Record<string, string>, params: Record<string, string>) {
    const done = (body: unknown, status = 200) => ({ body, status });
    const now = Math.floor(Date.now() / 1000);

    switch (action) {
      case "user_info":
        return done({ status: "STATUS_SUCCESS", data: { username: "reseller", credits: state.credits } });
      case "packages":
        return done({ status: "STATUS_SUCCESS", data: FAKE_PACKAGES });
      case "get_lines": {
        // The panel's search: a LIKE over the username, password and reseller notes; a page of `limit` (50) from `start`.
        const search = (params["search[value]"] ?? "").toLowerCase();
        const found = [...lines.values()].filter(
          (l) => l.type === "m3u" && (!search || [l.username, l.password, l.reseller_notes].some((v) => v.toLowerCase().includes(search))),
        );
        return done(page(found, params, lineData));
      }
      case "create_line": {
        if (method !== "POST") return done({ status: "STATUS_INVALID_TYPE" });
        const pkg = FAKE_PACKAGES.find((p) => p.id === form.package);
        if (!pkg) return done({ status: "STATUS_INVALID_PACKAGE" });
        const trial = form.trial === "1";
        if (form.member_id && !users.has(form.member_id)) return done({ status: "STATUS_FAILURE", error: "not your sub-reseller" });
        if (form.username && [...lines.values()].some((l) => l.username === form.username)) {
          return done({ status: "STATUS_EXISTS_USERNAME" });
        }
        const cost = trial ? pkg.trial_credits : pkg.official_credits;
        if (state.credits < cost) return done({ status: "STATUS_INSUFFICIENT_CREDITS" });
        state.credits -= cost;
        const id = String(++nextId);
        const line: FakeLine = {
          id,
          username: form.username || `u${id}`,
          password: form.password || `p${id}x9`,
          package: pkg.id,
          trial,
          exp_date: trial ? now + pkg.trial_duration * 3600 : addMonthsUnix(now, pkg.official_duration),
          enabled: true,
          contact: form.contact ?? "",
          reseller_notes: form.reseller_notes ?? "",
          max_connections: pkg.max_connections,
          type: "m3u",
          mac: "",
          device_id: "",
          bouquets: form["bouquets_selected[]"]?.split(",") ?? JSON.parse(pkg.bouquets ?? "[]").map(String),
          ...(form.member_id ? { member_id: form.member_id } : {}),
        };
        lines.set(id, line);
        return done({ status: "STATUS_SUCCESS", data: lineData(line) });
      }
      case "edit_line": {
        const line = lines.get(form.id ?? "");
        // The ISP lock reset: no package, no charge.
        if (line && form.isp_clear !== undefined && !form.package) return done({ status: "STATUS_SUCCESS" });
        const pkg = FAKE_PACKAGES.find((p) => p.id === form.package);
        if (!line) return done({ status: "STATUS_FAILURE", error: "no such line" });
        if (!pkg) return done({ status: "STATUS_INVALID_PACKAGE" });
        if (state.credits < pkg.official_credits) return done({ status: "STATUS_INSUFFICIENT_CREDITS" });
        state.credits -= pkg.official_credits;
        line.exp_date = addMonthsUnix(Math.max(line.exp_date, now), pkg.official_duration);
        line.trial = false;
        return done({ status: "STATUS_SUCCESS", data: lineData(line) });
      }
      case "enable_line":
      case "disable_line": {
        const line = lines.get(form.id ?? "");
        if (!line) return done({ status: "STATUS_FAILURE", error: "no such line" });
        line.enabled = action === "enable_line";
        return done({ status: "STATUS_SUCCESS" });
      }
      // MAG boxes and Enigma2 receivers: a line keyed by the device's MAC, with its own device id.
      case "get_mags":
      case "get_enigmas": {
        const type = DEVICE_OF[action];
        const search = (params["search[value]"] ?? "").toLowerCase();
        const found = [...lines.values()].filter(
          (l) => l.type === type && (!search || [l.username, l.mac, l.reseller_notes].some((v) => v.toLowerCase().includes(search))),
        );
        return done(page(found, params, deviceData));
      }
      case "create_mag":
      case "create_enigma": {
        if (method !== "POST") return done({ status: "STATUS_INVALID_TYPE" });
        const type = DEVICE_OF[action];
        const pkg = FAKE_PACKAGES.find((p) => p.id === form.package);
        if (!pkg) return done({ status: "STATUS_INVALID_PACKAGE" });
        const mac = (form.mac ?? "").toUpperCase();
        if (!/^[0-9A-F]{2}([:-][0-9A-F]{2}){5}$/.test(mac)) return done({ status: "STATUS_INVALID_MAC" });
        if ([...lines.values()].some((l) => l.type === type && l.mac === mac)) return done({ status: "STATUS_EXISTS_MAC" });
        if (form.member_id && !users.has(form.member_id)) return done({ status: "STATUS_FAILURE", error: "not your sub-reseller" });
        const trial = form.trial === "1";
        const cost = trial ? pkg.trial_credits : pkg.official_credits;
        if (state.credits < cost) return done({ status: "STATUS_INSUFFICIENT_CREDITS" });
        state.credits -= cost;
        const id = String(++nextId);
        const line: FakeLine = {
          id,
          // The panel makes the box's line its own 32-character login.
          username: `box${id}`.padEnd(32, "x"),
          password: `pw${id}`.padEnd(32, "y"),
          package: pkg.id,
          trial,
          exp_date: trial ? now + pkg.trial_duration * 3600 : addMonthsUnix(now, pkg.official_duration),
          enabled: true,
          contact: form.reseller_notes ?? "",
          reseller_notes: form.reseller_notes ?? "",
          max_connections: pkg.max_connections,
          type,
          mac,
          device_id: String(5000 + nextId),
          ...(form.member_id ? { member_id: form.member_id } : {}),
        };
        lines.set(id, line);
        // As the panel answers: the device row, its line under `user`.
        return done({
          status: "STATUS_SUCCESS",
          data: { [type === "mag" ? "mag_id" : "device_id"]: line.device_id, user_id: id, mac, user: lineData(line) },
        });
      }
      case "edit_mag":
      case "edit_enigma": {
        const line = deviceLine(DEVICE_OF[action], form.id ?? "");
        if (!line) return done({ status: "STATUS_FAILURE" });
        if (form.isp_clear !== undefined && !form.package && form.mac === undefined) return done({ status: "STATUS_SUCCESS" });
        if (form.mac !== undefined) {
          // A new MAC for the box: refused when malformed or another box's; the old one is free again.
          const mac = form.mac.toUpperCase();
          if (!/^[0-9A-F]{2}([:-][0-9A-F]{2}){5}$/.test(mac)) return done({ status: "STATUS_INVALID_MAC" });
          if ([...lines.values()].some((l) => l !== line && l.type === line.type && l.mac === mac))
            return done({ status: "STATUS_EXISTS_MAC" });
          line.mac = mac;
          if (!form.package) return done({ status: "STATUS_SUCCESS" });
        }
        const pkg = FAKE_PACKAGES.find((p) => p.id === form.package);
        if (!pkg) return done({ status: "STATUS_INVALID_PACKAGE" });
        if (state.credits < pkg.official_credits) return done({ status: "STATUS_INSUFFICIENT_CREDITS" });
        state.credits -= pkg.official_credits;
        line.exp_date = addMonthsUnix(Math.max(line.exp_date, now), pkg.official_duration);
        return done({ status: "STATUS_SUCCESS" });
      }
      case "enable_mag":
      case "disable_mag":
      case "enable_enigma":
      case "disable_enigma": {
        const line = deviceLine(DEVICE_OF[action], form.id ?? "");
        if (!line) return done({ status: "STATUS_FAILURE" });
        line.enabled = action.startsWith("enable");
        return done({ status: "STATUS_SUCCESS" });
      }
      // Sub-resellers: resellers owned by the caller, each with its own balance.
      case "create_user": {
        if (method !== "POST") return done({ status: "STATUS_INVALID_TYPE" });
        const username = (form.username ?? "").trim();
        if (!/^[A-Za-z0-9_.-]{3,50}$/.test(username)) return done({ status: "STATUS_INVALID_USERNAME" });
        if ((form.password ?? "").length < 6) return done({ status: "STATUS_INVALID_PASSWORD" });
        if ([...users.values()].some((u) => u.username.toLowerCase() === username.toLowerCase())) {
          return done({ status: "STATUS_EXISTS_USERNAME" });
        }
        const user: FakeUser = {
          id: String(++nextUserId),
          username,
          password: form.password ?? "",
          email: form.email ?? "",
          member_group_id: form.member_group_id ?? "",
          notes: form.notes ?? "",
          credits: 0,
          status: 1,
        };
        users.set(user.id, user);
        return done({ status: "STATUS_SUCCESS", data: userData(user) });
      }
      case "get_users": {
        const search = (params["search[value]"] ?? "").toLowerCase();
        const found = [...users.values()].filter(
          (u) => !search || [u.username, u.email, u.notes].some((v) => v.toLowerCase().includes(search)),
        );
        return done(page(found, params, userData));
      }
      case "adjust_credits": {
        if (method !== "POST") return done({ status: "STATUS_INVALID_TYPE" });
        const user = users.get(form.id ?? "");
        if (!user) return done({ status: "STATUS_FAILURE", error: "not your sub-reseller" });
        const credits = Number(form.credits);
        if (!Number.isInteger(credits) || credits === 0) return done({ status: "STATUS_FAILURE", error: "invalid credits" });
        // Neither side below 0: giving needs the caller's credits, taking back needs the sub-reseller's.
        if (state.credits - credits < 0 || user.credits + credits < 0) return done({ status: "STATUS_INSUFFICIENT_CREDITS" });
        state.credits -= credits;
        user.credits += credits;
        creditLogs.push({ user_id: user.id, credits, note: form.note ?? "" });
        return done({ status: "STATUS_SUCCESS" });
      }
      default:
        return done({ status: "STATUS_INVALID_TYPE" });
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => answer(res, { status: "STATUS_FAILURE" }, 500));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/panel/reseller/index.php`,
    apiKey,
    lines,
    users,
    creditLogs,
    calls,
    get credits() {
      return state.credits;
    },
    set credits(value: number) {
      state.credits = value;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    get hangMs() {
      return state.hangMs;
    },
    get ignoreStart() {
      return state.ignoreStart;
    },
    set ignoreStart(value: boolean) {
      state.ignoreStart = value;
    },
    set hangMs(value: number) {
      state.hangMs = value;
    },
    loseAnswer(action, { when, as, times = 1 }) {
      for (let i = 0; i < times; i++) lost.push({ action, when, as });
    },
    failNext(body, times = 1, action) {
      for (let i = 0; i < times; i++) failures.push({ body: typeof body === "string" ? body : JSON.stringify(body), action });
    },
    callsOf: (action) => calls.filter((c) => c.action === action),
    made: () => [...lines.values()].filter((l) => !seeded.has(l.id)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
