// Issue 25 item 3: a provisioning job that fails tells the owner once, by e-mail to the owner's
// alerts e-mail (the first admin's address here): what failed, in the panel's words, and where to retry.
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox, provisioningJobs } from "@/server/db/schema";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { makeClient } from "@/server/modules/client/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

const PUBLIC_URL = "http://localhost:8080";
const OWNER_EMAIL = "owner@example.co.za";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL }, { seed: true });
  await createAdmin(t.app, OWNER_EMAIL);
});

afterAll(async () => {
  await t?.close();
});

describe("a failed provisioning job", () => {
  it("queues one e-mail to the owner's alerts e-mail with the panel's words and the retry link, once per job", async () => {
    const client = await makeClient(t.app, { username: "lerato.n", full_name: "Lerato Ndlovu", status: "active" });
    // A renewal for a client with no line: the panel cannot do it (a refusal, not retried).
    const [job] = await t.app.db
      .insert(provisioningJobs)
      .values({ client_id: client.id, action: "extend_line", cause_key: "test:renew:extend_line", package_name: "3 Months" })
      .returning();
    await t.app.provisioning.drain();
    const [failed] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, job.id));
    expect(failed.status).toBe("failed");

    const notices = await t.app.db.select().from(outbox).where(like(outbox.dedupe_key, "panel-failed:%"));
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice).toMatchObject({ channel: "email", recipient: OWNER_EMAIL, dedupe_key: `panel-failed:${job.id}` });
    expect(notice.subject).toBe("Panel job failed: could not renew the line for Lerato Ndlovu");
    expect(notice.body).toContain("The panel could not renew the line (3 Months line) for Lerato Ndlovu (lerato.n).");
    expect(notice.body).toContain("The panel said: This client has no line on the panel yet. (NO_LINE)");
    expect(notice.body).toContain(`${PUBLIC_URL}/admin/panel`);

    // The owner retries and it fails the same way: still the one e-mail for this job.
    await t.app.db
      .update(provisioningJobs)
      .set({ status: "pending", next_attempt_at: new Date(0) })
      .where(eq(provisioningJobs.id, job.id));
    await t.app.provisioning.drain();
    expect(await t.app.db.select().from(outbox).where(like(outbox.dedupe_key, "panel-failed:%"))).toHaveLength(1);
  });
});
