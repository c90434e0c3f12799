// Starts the server: parse the environment, build the app, make sure an admin exists, listen.

import type { AddressInfo } from "node:net";
import { buildApp, LISTEN_BACKLOG } from "./app";
import { adminLoginBox, ensureAdmin } from "./auth/bootstrap-admin";
import { ConfigError, loadConfig } from "./config";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // A stop asked for while starting (migrations, seeding: a supervisor giving up, Ctrl-C) waits
  // for the step in progress, so no database write is cut half-way; then the process closes.
  const early = signalsWhileStarting(config.SHUTDOWN_TIMEOUT_S * 1000);
  const app = await buildApp(config);
  if (early.asked()) return early.close(app);
  // Under the start-up lock: processes starting together on one empty database make one admin,
  // and only the one that made it prints its password.
  const admin = await app.database.exclusive(() => ensureAdmin(app.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD));
  if (early.asked()) {
    // Printed even when a stop is waiting: the password is shown only once, so it must not be lost.
    printAdmin(admin);
    return early.close(app);
  }
  await app.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG });
  // The running server's handlers take over (installed before the start-up ones go, so no
  // signal ever meets Node's default of dying on the spot).
  const stop = stopOnSignals(app, config.SHUTDOWN_TIMEOUT_S * 1000);
  early.release();
  // The log's "Server listening" line leaves at the end of this turn (lib/log-destination.ts):
  // after it, so the lines below are the last the terminal shows.
  await new Promise((resolve) => setImmediate(resolve));
  const { address, port } = app.server.address() as AddressInfo;
  const listening = address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
  const url = config.PUBLIC_URL ?? `http://localhost:${port}`;
  const where = config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.DATA_DIR}`;
  console.log(`StreamDesk is running on ${url} (listening on ${listening}) — database: ${where}`);
  // Last, so the login a first start made is what the terminal shows, not lost above the log.
  printAdmin(admin);
  if (early.asked()) return stop("SIGTERM");
}

/** The admin account made on this start; a generated password goes to the terminal only (stderr, plain text), never into the JSON log a collector keeps. */
function printAdmin(admin: Awaited<ReturnType<typeof ensureAdmin>>): void {
  if (admin.generatedPassword) {
    console.error(adminLoginBox("An admin account was created.", admin.email as string, admin.generatedPassword));
  } else if (admin.created) {
    console.log(`Admin account created for ${admin.email}.`);
  }
}

/**
 * Until the server listens: SIGTERM / SIGINT are noted, not obeyed at once (Node's default would
 * kill the process mid-migration). `close` then closes what was built and exits 0. A second
 * signal a second or more later, or the shutdown deadline passing, exits 1 without waiting.
 */
function signalsWhileStarting(deadlineMs: number) {
  let since = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (since) {
      if (Date.now() - since < 1000) return;
      console.error(`${signal} again while starting: exiting without waiting`);
      process.exit(1);
    }
    since = Date.now();
    console.error(`${signal} while starting: stopping once the current step is done`);
    setTimeout(() => {
      console.error("still starting at the shutdown deadline: exiting");
      process.exit(1);
    }, deadlineMs).unref();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    asked: () => since > 0,
    release() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
    async close(app: Awaited<ReturnType<typeof buildApp>>) {
      await app.close().catch((error: unknown) => console.error("closing failed:", error));
      process.exit(0);
    },
  };
}

/**
 * SIGTERM / SIGINT: stop accepting connections, let requests in flight finish, end the SSE
 * streams, stop the jobs and close the database (app.close()), then exit 0. Whatever still
 * holds the close (a client that stalls mid-request) has its connection cut at 80 % of the
 * deadline so the database can still close cleanly; at the deadline the process exits 1
 * regardless. A second signal a second or more after the first exits at once (a supervisor
 * and npm may each forward the same first one).
 */
function stopOnSignals(app: Awaited<ReturnType<typeof buildApp>>, deadlineMs: number): (signal: NodeJS.Signals) => Promise<void> {
  let stoppingSince = 0;
  const stop = async (signal: NodeJS.Signals) => {
    if (stoppingSince) {
      if (Date.now() - stoppingSince < 1000) return;
      app.log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    app.log.info(`${signal}: shutting down (at most ${deadlineMs / 1000} s)`);
    const cut = setTimeout(() => {
      app.log.warn("shutdown: requests still open; closing their connections");
      app.server.closeAllConnections();
    }, deadlineMs * 0.8);
    const deadline = setTimeout(() => {
      app.log.error("shutdown: deadline reached; exiting");
      process.exit(1);
    }, deadlineMs);
    cut.unref();
    deadline.unref();
    let code = 0;
    await app.close().catch((error: unknown) => {
      app.log.error({ err: error }, "shutdown: closing failed");
      code = 1;
    });
    process.exit(code);
  };
  process.on("SIGINT", (signal) => void stop(signal));
  process.on("SIGTERM", (signal) => void stop(signal));
  return stop;
}

main().catch((error) => {
  console.error("StreamDesk failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
