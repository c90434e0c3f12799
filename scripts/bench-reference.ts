// The physical limit a public read is measured against: nginx serving the same bytes as a
// static file (Debian's nginx; one worker process, as the API is one Node process; no access
// log), or, when nginx is not installed, a plain node:http server in its own process answering
// the same bytes — and the bench says which. Used by scripts/bench.ts.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../src/server/test-support/free-port";

export interface Reference {
  label: string;
  /** the URL of packages.json (the first file) */
  url: string;
  /** the URL of each file, by name */
  urls: Record<string, string>;
  stop(): Promise<void>;
}

export function findNginx(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"]) {
    if (spawnSync(candidate, ["-v"]).status === 0) return candidate;
  }
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

async function answers(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stopper(child: ChildProcess, work: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  };
}

/**
 * Serves `body` as application/json (packages.json) at the returned URL, and each of `files`
 * (name → bytes; .js as JavaScript, immutable like the app's hashed assets) beside it, until stop().
 */
export async function startReference(body: Buffer, files: Record<string, Buffer> = {}): Promise<Reference> {
  const all: Record<string, Buffer> = { "packages.json": body, ...files };
  const work = mkdtempSync(path.join(tmpdir(), "streamdesk-reference-"));
  // nginx's workers run as another user (nobody / www-data) when it is started as root.
  chmodSync(work, 0o755);
  const port = await freePort();
  const nginx = findNginx();
  if (nginx) {
    const www = path.join(work, "www");
    mkdirSync(www);
    for (const [name, bytes] of Object.entries(all)) writeFileSync(path.join(www, name), bytes);
    const conf = path.join(work, "nginx.conf");
    writeFileSync(
      conf,
      `worker_processes 1;
daemon off;
pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${work}/body; proxy_temp_path ${work}/proxy; fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi; scgi_temp_path ${work}/scgi;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    location = /packages.json { default_type application/json; add_header Cache-Control no-cache; etag on; }
    location ~ \\.js$ { types { } default_type "text/javascript; charset=utf-8"; add_header Cache-Control "public, max-age=31536000, immutable"; }
  }
}
`,
    );
    const child = spawn(nginx, ["-c", conf, "-p", work], { stdio: ["ignore", "ignore", "pipe"] });
    const url = `http://127.0.0.1:${port}/packages.json`;
    const urls = Object.fromEntries(Object.keys(all).map((name) => [name, `http://127.0.0.1:${port}/${name}`]));
    const stop = stopper(child, work);
    await answers(url, 5000).catch(async (error: unknown) => {
      await stop();
      throw error;
    });
    const version = spawnSync(nginx, ["-v"], { encoding: "utf8" })
      .stderr.trim()
      .replace(/^nginx version: /, "");
    return { label: `${version}, 1 worker`, url, urls, stop };
  }
  for (const [name, bytes] of Object.entries(all)) writeFileSync(path.join(work, name), bytes);
  const server = `
    const http = require("node:http");
    const fs = require("node:fs");
    const files = {};
    for (const name of ${JSON.stringify(Object.keys(all))}) {
      const body = fs.readFileSync(require("node:path").join(${JSON.stringify(work)}, name));
      files["/" + name] = { body, headers: { "content-type": name.endsWith(".js") ? "text/javascript" : "application/json", "content-length": body.length } };
    }
    http.createServer((req, res) => {
      const file = files[req.url];
      if (!file) { res.writeHead(404); return res.end(); }
      res.writeHead(200, file.headers); res.end(file.body);
    }).listen(${port}, "127.0.0.1");
  `;
  const child = spawn(process.execPath, ["-e", server], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/packages.json`;
  const urls = Object.fromEntries(Object.keys(all).map((name) => [name, `http://127.0.0.1:${port}/${name}`]));
  const stop = stopper(child, work);
  await answers(url, 5000).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { label: "node:http static server (nginx is not installed: apt-get install -y nginx)", url, urls, stop };
}
