// Issue 14: link fields an admin sets cannot send visitors off the site through a path that a
// browser reads as another host (`/\evil.example`), nor carry script. The probe's strings, through
// the real routes: 400 naming the field, and nothing saved.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloads } from "@/server/db/schema";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  cookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url, payload, headers: { cookie, origin: "http://localhost:8080" } });

describe("admin link fields", () => {
  it.each(["/\\evil.example/app.apk", "//evil.example/app.apk", "javascript:alert(1)", "https://shop.example@evil.example/x.apk"])(
    "refuses the download link %s with a 400 naming the field, and saves nothing",
    async (link) => {
      const res = await post("/api/admin/downloads", { name: "Player", download_url: link });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.download_url).toBe("Download URL must start with https:// or /");
      expect(await t.app.db.select().from(downloads)).toHaveLength(0);
    },
  );

  it("keeps accepting a real address and a path on the site", async () => {
    for (const link of ["https://downloads.example.co.za/player.apk", "/downloads/player.apk"]) {
      const res = await post("/api/admin/downloads", { name: `Player ${link.length}`, download_url: link });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
});
