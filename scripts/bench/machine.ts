import { spawnSync } from "node:child_process";
import os from "node:os";

export type Machine = {
  cpu: string;
  cores: number;
  memory: string;
  os: string;
  node: string;
  database: string;
  loadStart: string;
  git: string;
};

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

/** The load average now: call at the start of a run, pass it to `machine` at the end. */
export const loadAverage = load;

export function machine(database: string, loadStart: string = load()): Machine {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout?.trim() || "?";
  // The bench's own outputs (bench/results, bench/README.md's tables) are not sources.
  const status = spawnSync("git", ["status", "--porcelain", "--", ".", ":!bench/results", ":!bench/README.md"], { encoding: "utf8" });
  const changed = (status.stdout ?? "").split("\n").filter(Boolean).length;
  return {
    cpu: `${os.cpus()[0]?.model?.trim() ?? "?"}`,
    cores: os.availableParallelism(),
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    database,
    loadStart,
    git: `${head}${changed ? ` + ${changed} uncommitted files` : ""}`,
  };
}

export function machineMarkdown(m: Machine, extra: Record<string, string> = {}): string {
  const rows: [string, string][] = [
    ["CPU", `${m.cpu}, ${m.cores} cores (nproc)`],
    ["Memory", m.memory],
    ["OS", m.os],
    ["Node", m.node],
    ["Database", m.database],
    ["Load average (1/5/15 min) at start", m.loadStart],
    ["Load average at end", load()],
    ["Sources", m.git],
    ...Object.entries(extra),
  ];
  return ["| | |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join("\n");
}
