// What the fake panel does and answers for each action of the reseller API (adapters/panel/
// fake-xtream.ts serves them over HTTP): lines, MAG and Enigma2 devices, sub-resellers and credits.
// Written from the panel's protocol: it imports nothing of the product.
import { addMonthsUnix, FAKE_PACKAGES, type FakeLine, type FakePackage, type FakePanelStore, type FakeUser } from "./fake-xtream-data";

/** The panel's actions over `store`; `respond` answers one call. */
export function fakePanelActions(store: FakePanelStore) {
  const { lines, users, creditLogs, state } = store;
  let nextUserId = 500;
  let nextId = 1000;
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
    /**
     * A new line on `pkg`, as create_line, create_mag and create_enigma make it: the package's trial
     * or official credits taken, the next id, the package's time from now, and the sub-reseller
     * member_id names. `own` gives what differs by kind (login, device). Null, with nothing taken,
     * when the credits fall short.
     */
    const makeLine = (
      pkg: FakePackage,
      trial: boolean,
      own: (id: string) => Pick<FakeLine, "username" | "password" | "contact" | "type" | "mac" | "device_id" | "bouquets">,
    ): FakeLine | null => {
      const cost = trial ? pkg.trial_credits : pkg.official_credits;
      if (state.credits < cost) return null;
      state.credits -= cost;
      const id = String(++nextId);
      const line: FakeLine = {
        id,
        package: pkg.id,
        trial,
        exp_date: trial ? now + pkg.trial_duration * 3600 : addMonthsUnix(now, pkg.official_duration),
        enabled: true,
        reseller_notes: form.reseller_notes ?? "",
        max_connections: pkg.max_connections,
        ...own(id),
        ...(form.member_id ? { member_id: form.member_id } : {}),
      };
      lines.set(id, line);
      return line;
    };

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
        const line = makeLine(pkg, trial, (id) => ({
          username: form.username || `u${id}`,
          password: form.password || `p${id}x9`,
          contact: form.contact ?? "",
          type: "m3u",
          mac: "",
          device_id: "",
          bouquets: form["bouquets_selected[]"]?.split(",") ?? JSON.parse(pkg.bouquets ?? "[]").map(String),
        }));
        if (!line) return done({ status: "STATUS_INSUFFICIENT_CREDITS" });
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
        const line = makeLine(pkg, form.trial === "1", (id) => ({
          // The panel makes the box's line its own 32-character login.
          username: `box${id}`.padEnd(32, "x"),
          password: `pw${id}`.padEnd(32, "y"),
          contact: form.reseller_notes ?? "",
          type,
          mac,
          device_id: String(5000 + Number(id)),
        }));
        if (!line) return done({ status: "STATUS_INSUFFICIENT_CREDITS" });
        // As the panel answers: the device row, its line under `user`.
        return done({
          status: "STATUS_SUCCESS",
          data: { [type === "mag" ? "mag_id" : "device_id"]: line.device_id, user_id: line.id, mac, user: lineData(line) },
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

  return { respond };
}
