// Starts the server: parse the environment, build the app, make sure an admin exists, listen.

import { buildApp } from "./app";
import { ensureAdmin } from "./auth/bootstrap-admin";
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
  const app = await buildApp(config);
  const admin = await ensureAdmin(app.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  await app.listen({ port: config.PORT, host: config.HOST });
  const url = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const where = config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.DATA_DIR}`;
  console.log(`StreamDesk is running on ${url} — database: ${where}`);
  if (admin.generatedPassword) {
    console.log("\n  An admin account was created. Sign in at /admin/login with:");
    console.log(`    email:    ${admin.email}`);
    console.log(`    password: ${admin.generatedPassword}`);
    console.log("  This password is shown only once: change it after signing in.\n");
  } else if (admin.created) {
    console.log(`Admin account created for ${admin.email}.`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    await app.close().catch(() => {});
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  console.error("StreamDesk failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
