import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// nginx (Debian's package) in front of several console instances, with the configuration
// docs/deployment.md shows ("Running on many machines", between the nginx markers): the many-machines test
// (tests/http/many-machines.test.ts) and `npm run bench -- --instances 2` take that very block,
// put their own ports in, plain HTTP on loopback instead of TLS, and a log of which instance
// answered each request. Tooling: never loaded by the app.

const projectRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

export type Nginx = { url: string; port: number; accessLog(): string[]; stop(): Promise<void> };

export function nginxBinary(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (fs.existsSync(candidate)) return candidate;
  const found = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  return found || null;
}

/** The nginx block of docs/deployment.md. */
export function documentedNginxConfig(): string {
  const doc = fs.readFileSync(path.join(projectRoot, "docs/deployment.md"), "utf8");
  const block = /<!-- nginx:start -->\s*```nginx\n([\s\S]*?)```\s*<!-- nginx:end -->/.exec(doc)?.[1];
  if (!block) throw new Error("docs/deployment.md has no nginx block between <!-- nginx:start --> and <!-- nginx:end -->");
  return block;
}

/** The documented block for this machine: our upstreams and port, HTTP instead of TLS. */
export function testNginxConfig(block: string, port: number, upstreams: string[]): string {
  const servers = upstreams.map((u) => `    server ${u} max_fails=3 fail_timeout=10s;`).join("\n");
  const replaced = block
    .replace(/^(\s*)server 10\.0\.0\.\d+:3000[^\n]*\n/m, `${servers}\n`)
    .replace(/^\s*server 10\.0\.0\.\d+:3000[^\n]*\n/gm, "")
    .replace(/listen 443 ssl;/, `listen 127.0.0.1:${port};`)
    .replace(/^\s*ssl_[a-z_]+ [^\n]*\n/gm, "");
  for (const u of upstreams) if (!replaced.includes(u)) throw new Error(`the documented upstream block did not take ${u}`);
  if (!replaced.includes(`listen 127.0.0.1:${port};`)) throw new Error("the documented server block has no `listen 443 ssl;`");
  return replaced;
}

export async function startNginx(upstreams: string[], port: number): Promise<Nginx> {
  const binary = nginxBinary();
  if (!binary) throw new Error("nginx is not installed");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-nginx-"));
  // nginx's workers run as another account when it is started as root: its temp folders must be theirs too.
  fs.chmodSync(dir, 0o755);
  const temp = path.join(dir, "temp");
  fs.mkdirSync(temp, { mode: 0o777 });
  fs.chmodSync(temp, 0o777);
  const log = path.join(dir, "access.log");
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    conf,
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  log_format upstreams '$remote_addr "$request" $status $upstream_addr';
  access_log ${log} upstreams;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
${testNginxConfig(documentedNginxConfig(), port, upstreams)}
}
`,
  );
  const child: ChildProcess = spawn(binary, ["-p", dir, "-c", conf, "-e", path.join(dir, "error.log"), "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    const errors = fs.existsSync(path.join(dir, "error.log")) ? fs.readFileSync(path.join(dir, "error.log"), "utf8") : "";
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nginx did not start:\n${output}\n${errors}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    accessLog: () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean) : []),
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
