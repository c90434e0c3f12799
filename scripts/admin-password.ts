// `npm run admin:password`: the first admin of the configured database (DATABASE_URL, else PGlite
// in DATA_DIR) gets a new random password, printed once; the sessions signed in with the old one
// end. For an owner who lost the password a first start printed.
import { existsSync } from "node:fs";
import path from "node:path";
import { adminLoginBox, resetFirstAdminPassword } from "@/server/auth/bootstrap-admin";
import { configurePasswordCost } from "@/server/auth/passwords";
import { ConfigError, loadConfig } from "@/server/config";
import { pgliteInUse } from "@/server/db/backup";
import { openDatabase } from "@/server/db/client";

async function main(): Promise<number> {
  const config = loadConfig();
  const where = config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.DATA_DIR}`;
  if (!config.DATABASE_URL) {
    if (!existsSync(path.join(config.DATA_DIR, "PG_VERSION"))) {
      console.error(`There is no database in ${config.DATA_DIR} yet: start the server (npm start) and it makes one, with an admin.`);
      return 1;
    }
    // PGlite is one process's database: the running server holds it.
    const pid = pgliteInUse(config.DATA_DIR);
    if (pid) {
      console.error(`The server (pid ${pid}) has ${config.DATA_DIR} open. Stop it first, then run npm run admin:password again.`);
      return 1;
    }
  }
  configurePasswordCost(config.PASSWORD_HASH_COST);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    pgliteSharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB,
    poolSize: 2, // (one holds the migration lock while another migrates)
  });
  try {
    const reset = await resetFirstAdminPassword(database.db);
    if (!reset) {
      console.error(`${where} has no admin yet: start the server (npm start) and it makes one.`);
      return 1;
    }
    console.log(adminLoginBox(`New password for the first admin (${where}).`, reset.email, reset.password));
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Failed: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
