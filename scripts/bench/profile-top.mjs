// Where a served build's CPU went, from a `node --cpu-prof` profile of it under load: the share of
// each package (or of the app's own chunks) in the samples of the last seconds (default 10:
// the measured rounds, not the start), idle time left out. `mode`: pkg (by package), self (by
// function), incl (by function, with what it calls).
//
//   npx tsx --conditions=react-server scripts/bench/ab.ts --seconds 5 --rounds 3 --warmup 3 --connections 1 \
//     --as admin --env WEB_CONCURRENCY=1 --paths /branches "DIR::--cpu-prof --cpu-prof-dir=/tmp/prof"
//   node scripts/bench/profile-top.mjs /tmp/prof/CPU.….cpuprofile pkg|self|incl [ENTRIES] [SECONDS]
import fs from "node:fs";
const [file, mode = "self", n = "30", tailSeconds = "10"] = process.argv.slice(2);
const p = JSON.parse(fs.readFileSync(file, "utf8"));
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const dt = new Map();
const tail = Number(tailSeconds) * 1e6;
let ts = p.startTime; const stamps = p.timeDeltas.map((d) => (ts += d));
const end = p.endTime - 0.3e6;
for (let i = 0; i < p.samples.length; i++) { if (stamps[i] < end - tail || stamps[i] > end) continue; if (byId.get(p.samples[i]).callFrame.functionName === "(idle)") continue; dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0)); }
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const label = (cf) => {
  const url = cf.url.replace(/^file:\/\//, "").replace(/.*node_modules\//, "nm:").replace(/.*\/\.next\//, ".next/");
  return `${cf.functionName || "(anon)"} ${url}:${cf.lineNumber}`;
};
const pkg = (cf) => {
  const u = cf.url;
  if (!u) return cf.functionName.startsWith("(") ? cf.functionName : "(native)";
  let m = u.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (m) {
    const s = m[1];
    if (s === "next") { const k = u.match(/next\/dist\/(compiled\/[^/]+|server\/[^/]+|[^/]+)/); return "next/" + (k ? k[1] : ""); }
    return s;
  }
  if (u.includes("/.next/server/chunks")) return ".next chunks";
  if (u.includes("/.next/")) return ".next other";
  if (u.startsWith("node:")) return u;
  return u.replace(/^file:\/\/\/work\/wt\/[^/]+\//, "");
};
const parent = new Map();
for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
const agg = new Map();
if (mode === "self" || mode === "pkg") {
  for (const [id, t] of dt) { const cf = byId.get(id).callFrame; const k = mode === "self" ? label(cf) : pkg(cf); agg.set(k, (agg.get(k) ?? 0) + t); }
} else {
  // inclusive by function label (count once per stack)
  for (const [id, t] of dt) {
    const seen = new Set(); let cur = id;
    while (cur !== undefined) { const k = label(byId.get(cur).callFrame); if (!seen.has(k)) { seen.add(k); agg.set(k, (agg.get(k) ?? 0) + t); } cur = parent.get(cur); }
  }
}
console.log(`total ${(total / 1000).toFixed(0)} ms`);
for (const [k, t] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, Number(n))) console.log(`${(100 * t / total).toFixed(1).padStart(5)}%  ${k}`);
