// The panel settings' rules (issue 28): a stream URL is http(s)://host[:port] and nothing else,
// stored without a trailing slash; panel reads are kept 1-60 whole minutes, 5 by default.
import { describe, expect, it } from "vitest";
import {
  CACHE_MINUTES_MESSAGE,
  normaliseStreamUrl,
  PANEL_SETTINGS,
  panelCacheMinutes,
  panelSettingProblem,
  panelSettingsSchema,
  STREAM_URL_MESSAGE,
} from "./panel-settings";

describe("normaliseStreamUrl", () => {
  it.each<[string, string | null]>([
    ["http://tv.example.net", "http://tv.example.net"],
    ["https://tv.example.net:2096/", "https://tv.example.net:2096"],
    [" HTTP://TV.Example.net:8080 ", "http://tv.example.net:8080"],
    ["http://10.0.0.5:25461", "http://10.0.0.5:25461"],
    ["http://[2001:db8::1]:8080", "http://[2001:db8::1]:8080"],
    ["ftp://tv.example.net", null],
    ["tv.example.net:8080", null],
    ["//tv.example.net", null],
    ["http://tv.example.net/live", null],
    ["http://tv.example.net:8080/?a=1", null],
    ["http://tv.example.net#x", null],
    ["http://user:pw@tv.example.net", null],
    ["http://tv example.net", null],
    ["http://tv.example.net:0", null],
    ["http://tv.example.net:65536", null],
    ["http://-tv.example.net", null],
    ["", null],
  ])("%s → %s", (input, expected) => {
    expect(normaliseStreamUrl(input)).toBe(expected);
  });
});

describe("panelSettingProblem and panelCacheMinutes", () => {
  it.each<[string, string, string | null]>([
    [PANEL_SETTINGS.streamUrl, "", null],
    [PANEL_SETTINGS.streamUrl, "http://tv.example.net:8080", null],
    [PANEL_SETTINGS.streamUrl, "tv.example.net", STREAM_URL_MESSAGE],
    [PANEL_SETTINGS.cacheMinutes, "", null],
    [PANEL_SETTINGS.cacheMinutes, "1", null],
    [PANEL_SETTINGS.cacheMinutes, "60", null],
    [PANEL_SETTINGS.cacheMinutes, "0", CACHE_MINUTES_MESSAGE],
    [PANEL_SETTINGS.cacheMinutes, "61", CACHE_MINUTES_MESSAGE],
    [PANEL_SETTINGS.cacheMinutes, "2.5", CACHE_MINUTES_MESSAGE],
    ["support_hours", "anything", null],
  ])("%s = %j → %s", (key, value, expected) => {
    expect(panelSettingProblem(key, value)).toBe(expected);
  });

  it("reads the minutes as set, else the default 5", () => {
    expect(panelCacheMinutes("12")).toBe(12);
    expect(panelCacheMinutes("")).toBe(5);
    expect(panelCacheMinutes("90")).toBe(5);
    expect(panelCacheMinutes(undefined)).toBe(5);
  });

  it("the endpoint's schema normalises the URL and takes the minutes as a number", () => {
    expect(panelSettingsSchema.parse({ stream_url: "http://TV.example.net/", cache_minutes: "7" })).toEqual({
      stream_url: "http://tv.example.net",
      cache_minutes: 7,
    });
    expect(panelSettingsSchema.parse({ stream_url: "" })).toEqual({ stream_url: "" });
    const refused = panelSettingsSchema.safeParse({ stream_url: "http://x/y", cache_minutes: 0 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["stream_url", STREAM_URL_MESSAGE],
      ["cache_minutes", CACHE_MINUTES_MESSAGE],
    ]);
  });
});
