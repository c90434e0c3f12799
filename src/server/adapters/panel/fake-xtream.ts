// A local stand-in for an Xtream-family reseller API (XUI.one, XC_VM), for tests only. It
// speaks the real protocol: `?api_key=&action=`, form-encoded writes, {"status":"STATUS_*"}
// answers; it checks the key, charges credits per package, extends a line from its expiry (or
// from now once lapsed), refuses with the panel's own statuses, and can be made slow, down or
// out of credits to play the failures a reseller meets.
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
}

export interface FakePanelCall {
  method: string;
  action: string;
  form: Record<string, string>;
}

export interface FakeXtreamPanel {
  /** http://127.0.0.1:<port>/panel/reseller/index.php — use as PANEL_API_URL */
  url: string;
  apiKey: string;
  lines: Map<string, FakeLine>;
  calls: FakePanelCall[];
  credits: number;
  /** answers wait this long (timeouts) */
  delayMs: number;
  /** the next N calls answer with this body instead (a panel error, or text that is not JSON) */
  failNext(body: string | Record<string, unknown>, times?: number): void;
  /** calls of one action */
  callsOf(action: string): FakePanelCall[];
  close(): Promise<void>;
}

const PACKAGES = [
  {
    id: "1",
    package_name: "1 Month Official",
    is_trial: 0,
    is_official: 1,
    official_credits: 1,
    trial_credits: 0,
    official_duration: 1,
    official_duration_in: "months",
    trial_duration: 0,
    trial_duration_in: "hours",
    max_connections: 1,
  },
  {
    id: "3",
    package_name: "3 Months Official",
    is_trial: 0,
    is_official: 1,
    official_credits: 3,
    trial_credits: 0,
    official_duration: 3,
    official_duration_in: "months",
    trial_duration: 0,
    trial_duration_in: "hours",
    max_connections: 1,
  },
  {
    id: "9",
    package_name: "Trial 24h",
    is_trial: 1,
    is_official: 0,
    official_credits: 0,
    trial_credits: 0,
    official_duration: 0,
    official_duration_in: "months",
    trial_duration: 24,
    trial_duration_in: "hours",
    max_connections: 1,
  },
];

function addMonthsUnix(from: number, months: number): number {
  const d = new Date(from * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return Math.floor(d.getTime() / 1000);
}

export async function startFakeXtreamPanel(options: { apiKey?: string; credits?: number } = {}): Promise<FakeXtreamPanel> {
  const apiKey = options.apiKey ?? "fake-panel-key-123";
  const lines = new Map<string, FakeLine>();
  const calls: FakePanelCall[] = [];
  const failures: string[] = [];
  let nextId = 1000;

  const state = {
    credits: options.credits ?? 100,
    delayMs: 0,
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
    max_connections: 1,
    enabled: l.enabled ? 1 : 0,
    is_trial: l.trial ? 1 : 0,
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (url.pathname !== "/panel/reseller/index.php") return answer(res, { status: "STATUS_FAILURE", error: "not found" }, 404);
    const action = url.searchParams.get("action") ?? "";
    const form = Object.fromEntries(new URLSearchParams(raw));
    // Recorded on arrival: a call the client gave up waiting for still reached the panel.
    calls.push({ method: req.method ?? "GET", action, form });
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (url.searchParams.get("api_key") !== apiKey) return answer(res, { status: "STATUS_FAILURE", error: "Invalid API key" }, 401);
    const failure = failures.shift();
    if (failure !== undefined) return answer(res, failure);
    const now = Math.floor(Date.now() / 1000);

    switch (action) {
      case "user_info":
        return answer(res, { status: "STATUS_SUCCESS", data: { username: "reseller", credits: state.credits } });
      case "packages":
        return answer(res, { status: "STATUS_SUCCESS", data: PACKAGES });
      case "get_lines":
        return answer(res, { status: "STATUS_SUCCESS", data: [...lines.values()].map(lineData) });
      case "create_line": {
        if (req.method !== "POST") return answer(res, { status: "STATUS_INVALID_TYPE" });
        const pkg = PACKAGES.find((p) => p.id === form.package);
        if (!pkg) return answer(res, { status: "STATUS_INVALID_PACKAGE" });
        const trial = form.trial === "1";
        const cost = trial ? pkg.trial_credits : pkg.official_credits;
        if (state.credits < cost) return answer(res, { status: "STATUS_INSUFFICIENT_CREDITS" });
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
        };
        lines.set(id, line);
        return answer(res, { status: "STATUS_SUCCESS", data: lineData(line) });
      }
      case "edit_line": {
        const line = lines.get(form.id ?? "");
        const pkg = PACKAGES.find((p) => p.id === form.package);
        if (!line) return answer(res, { status: "STATUS_FAILURE", error: "no such line" });
        if (!pkg) return answer(res, { status: "STATUS_INVALID_PACKAGE" });
        if (state.credits < pkg.official_credits) return answer(res, { status: "STATUS_INSUFFICIENT_CREDITS" });
        state.credits -= pkg.official_credits;
        line.exp_date = addMonthsUnix(Math.max(line.exp_date, now), pkg.official_duration);
        line.trial = false;
        return answer(res, { status: "STATUS_SUCCESS", data: lineData(line) });
      }
      case "enable_line":
      case "disable_line": {
        const line = lines.get(form.id ?? "");
        if (!line) return answer(res, { status: "STATUS_FAILURE", error: "no such line" });
        line.enabled = action === "enable_line";
        return answer(res, { status: "STATUS_SUCCESS" });
      }
      default:
        return answer(res, { status: "STATUS_INVALID_TYPE" });
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
    failNext(body, times = 1) {
      for (let i = 0; i < times; i++) failures.push(typeof body === "string" ? body : JSON.stringify(body));
    },
    callsOf: (action) => calls.filter((c) => c.action === action),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
