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
import { fakePanelActions } from "./fake-xtream-actions";
import { existingLines, FAKE_EXISTING, type FakeCreditLog, type FakeLine, type FakeUser } from "./fake-xtream-data";

export { FAKE_EXISTING, FAKE_PACKAGES, type FakeCreditLog, type FakeLine, type FakeUser } from "./fake-xtream-data";

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
  const failures: { body: string; action?: string }[] = [];
  const lost: { action: string; when: "after" | "before"; as: "timeout" | "5xx" }[] = [];

  const state = {
    credits: options.credits ?? 100,
    delayMs: 0,
    hangMs: 2_000,
    ignoreStart: false,
  };

  const { respond } = fakePanelActions({ lines, users, creditLogs, state });

  const answer = (res: ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
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
