// The fake panel's data (adapters/panel/fake-xtream.ts): its lines, sub-resellers and credit logs,
// the 47 packages on 68 bouquets, and the 2,200 lines a real reseller's panel starts with.
// Written from the panel's protocol: it imports nothing of the product.

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

export type FakePackage = {
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
const FAKE_BOUQUET_COUNT = 68;
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
export function existingLines(counts: { m3u: number; mag: number; enigma2: number }, now: number): FakeLine[] {
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

export function addMonthsUnix(from: number, months: number): number {
  const d = new Date(from * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return Math.floor(d.getTime() / 1000);
}

/** What the fake panel holds while it runs: the actions read and change it, the test reads it. */
export interface FakePanelStore {
  lines: Map<string, FakeLine>;
  users: Map<string, FakeUser>;
  creditLogs: FakeCreditLog[];
  state: { credits: number; delayMs: number; hangMs: number; ignoreStart: boolean };
}
