// Issue 30, item 6: password hashing stalled file serving. scrypt and file reads share libuv's
// thread pool (4 threads); 40 sign-ins at once queued 40 hashes in front of every file read, and
// a 16 ms file took 6.6 s. Hashes now wait in a bounded queue (auth/hash-queue.ts): at most the
// pool less the file-reading share run at once, a few wait, the rest are refused at once with
// 503 and Retry-After. Hashed at the tests' 2^14 (an eighth of production's cost) to stay quick: how the
// pool is shared does not depend on the cost.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultHashConcurrency, HashQueue } from "@/server/auth/hash-queue";
import { passwordQueue } from "@/server/auth/passwords";
import { createAdmin, randomIp } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

const LOGINS = 40;
let t: TestApp;
let base: string;
let web: string;
let ownerEmail: string;

beforeAll(async () => {
  // A built web app of two files: the page and a file the pool has to read (not a hashed asset,
  // so it is read from disk on every request).
  web = mkdtempSync(path.join(tmpdir(), "sd-login-flood-"));
  mkdirSync(path.join(web, "assets"));
  writeFileSync(path.join(web, "index.html"), "<!doctype html><title>t</title><div id=root></div>");
  writeFileSync(path.join(web, "robots.txt"), `User-agent: *\n${"# padding\n".repeat(500)}`);
  t = await createTestApp({ LOGIN_LIMIT_PER_MIN: 100_000, PASSWORD_HASH_QUEUE: LOGINS, WEB_DIST_DIR: web }, { seed: false });
  ownerEmail = (await createAdmin(t.app, "flood-owner@example.test")).email;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
  rmSync(web, { recursive: true, force: true });
});

const login = (password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/login",
    payload: { email: ownerEmail, password },
    remoteAddress: randomIp(),
    headers: { origin: "http://localhost:8080" },
  });

describe("the password-hashing queue", () => {
  it("keeps part of the pool for files: the default runs at most the pool less half of it, at least one", () => {
    expect(defaultHashConcurrency(4, 8)).toBe(2);
    expect(defaultHashConcurrency(4, 2)).toBe(1); // two cores: one stays with the event loop
    expect(defaultHashConcurrency(1, 8)).toBe(1);
    expect(defaultHashConcurrency(16, 32)).toBe(8);
  });

  it("runs at most `concurrency` tasks, in order; beyond the waiting bound a refusable task gets 503 with Retry-After", async () => {
    const queue = new HashQueue(2, 3);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      order.push(n);
      return n;
    };
    const accepted = [1, 2, 3, 4, 5].map((n) => queue.run(task(n), { refuse: true }));
    const refused = queue.run(task(6), { refuse: true });
    await expect(refused).rejects.toMatchObject({ statusCode: 503, headers: { "retry-after": expect.stringMatching(/^[1-9]\d*$/) } });
    // A task that may not be refused (the server's own hashing) waits instead.
    const ownWork = queue.run(task(7));
    expect(await Promise.all([...accepted, ownWork])).toEqual([1, 2, 3, 4, 5, 7]);
    expect(most).toBe(2);
    expect(order.slice(2)).toEqual([3, 4, 5, 7]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it(`with ${LOGINS} sign-ins hashing at once, never more than the limit run and a file is served before they are done`, async () => {
    const limit = passwordQueue().concurrency;
    expect(limit).toBe(defaultHashConcurrency());
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, passwordQueue().load.running);
    }, 5);
    let answered = 0;
    const logins = Array.from({ length: LOGINS }, (_, i) =>
      login(`wrong-guess-${i}`).then((r) => {
        answered++;
        return r;
      }),
    );
    try {
      // Wait until the pool is surely busy hashing, then read a file from disk five times.
      while (passwordQueue().load.waiting === 0 && answered < LOGINS) await new Promise((r) => setTimeout(r, 2));
      for (let i = 0; i < 5; i++) {
        const file = await fetch(`${base}/robots.txt`);
        expect(file.status).toBe(200);
        await file.arrayBuffer();
      }
      // Each read found a free thread: most sign-ins are still hashing. (Before the queue, each
      // read waited at the back of libuv's queue, behind every hash.)
      expect(LOGINS - answered).toBeGreaterThan(LOGINS / 2);
      const codes = (await Promise.all(logins)).map((r) => r.statusCode);
      expect(codes).toEqual(Array(LOGINS).fill(401));
      expect(most).toBeLessThanOrEqual(limit);
    } finally {
      clearInterval(sampler);
      await Promise.allSettled(logins);
    }
  }, 120_000);

  it("a sign-in beyond the queue's bound is refused at once: 503, Retry-After, the error shape", async () => {
    const small = await createTestApp({ LOGIN_LIMIT_PER_MIN: 100_000, PASSWORD_HASH_QUEUE: 2 }, { seed: false });
    try {
      const email = (await createAdmin(small.app, "flood-small@example.test")).email;
      const limit = passwordQueue().concurrency;
      const responses = await Promise.all(
        Array.from({ length: limit + 2 + 4 }, (_, i) =>
          small.app.inject({
            method: "POST",
            url: "/api/admin/login",
            payload: { email, password: `wrong-${i}` },
            remoteAddress: randomIp(),
            headers: { origin: "http://localhost:8080" },
          }),
        ),
      );
      const refused = responses.filter((r) => r.statusCode === 503);
      expect(responses.filter((r) => r.statusCode === 401)).toHaveLength(limit + 2);
      expect(refused).toHaveLength(4);
      for (const r of refused) {
        expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
        expect(r.json()).toEqual({ error: { code: "busy", message: expect.stringContaining("try again") } });
      }
    } finally {
      await small.close();
    }
  }, 60_000);
});
