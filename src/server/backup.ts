// `npm run backup -- <file>` / `npm run restore -- <file>`: the configured database (DATABASE_URL,
// else PGlite in DATA_DIR) into one file and back (db/backup.ts says how and what is refused).
import { ConfigError, loadConfig } from "./config";
import { BackupError, backup, restore } from "./db/backup";

async function main(): Promise<void> {
  const [command, file] = process.argv.slice(2);
  if ((command !== "backup" && command !== "restore") || !file) {
    console.error("usage: npm run backup -- <file>   |   npm run restore -- <file>");
    process.exit(2);
  }
  const config = loadConfig();
  const target = { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR };
  const where = config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.DATA_DIR}`;
  const started = Date.now();
  if (command === "backup") {
    const { bytes } = await backup(target, file);
    console.log(
      `Backed up ${where} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } else {
    const { movedAside } = await restore(target, file);
    console.log(`Restored ${file} into ${where} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    if (movedAside) console.log(`The data directory it replaced is kept in ${movedAside}: delete it once the restore is checked.`);
    console.log("Start the server: it applies any newer migrations this version has.");
  }
}

main().catch((error: unknown) => {
  if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
  else console.error("Failed:", error instanceof Error ? error.message : error);
  process.exit(1);
});
