// Merging duplicates through the API, one at a time as an administrator does: each of `count`
// email groups merged into its oldest member, then each merge undone, so the data is as before.
import { summarize, type Sample } from "./stats";

type Group = { subscribers: { id: number; updated_at: string }[] };

async function post(url: string, cookie: string, body?: unknown): Promise<{ ms: number; status: number; json: Record<string, unknown> }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", origin: new URL(url).origin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  return { ms: performance.now() - started, status: response.status, json };
}

export async function measureMerges(o: { url: string; adminCookie: string; count: number }): Promise<{ merge: Sample; undo: Sample; groups: number }> {
  const groups: Group[] = [];
  for (let page = 1; groups.length < o.count; page++) {
    const response = await fetch(`${o.url}/api/v1/subscribers/duplicates?rule=email&page=${page}`, { headers: { cookie: o.adminCookie } });
    const body = (await response.json()) as { data: Group[] };
    if (!response.ok || body.data.length === 0) break;
    groups.push(...body.data.filter((g) => g.subscribers.length <= 10));
  }
  const merges: { ms: number; id: string }[] = [];
  for (const group of groups.slice(0, o.count)) {
    const [survivor, ...merged] = [...group.subscribers].sort((a, b) => a.id - b.id);
    const result = await post(`${o.url}/api/v1/subscribers/merge`, o.adminCookie, {
      survivor_id: survivor!.id,
      merged_ids: merged.map((m) => m.id),
      values: {},
      updated_at: Object.fromEntries(group.subscribers.map((m) => [String(m.id), m.updated_at])),
    });
    if (result.status !== 200) throw new Error(`merge answered ${result.status}: ${JSON.stringify(result.json).slice(0, 300)}`);
    merges.push({ ms: result.ms, id: String(result.json.merge_id) });
  }
  const undos: number[] = [];
  for (const merge of merges) {
    const result = await post(`${o.url}/api/v1/subscribers/merges/${merge.id}/undo`, o.adminCookie);
    if (result.status !== 200) throw new Error(`undo answered ${result.status}: ${JSON.stringify(result.json).slice(0, 300)}`);
    undos.push(result.ms);
  }
  const seconds = [...merges.map((m) => m.ms), ...undos].reduce((a, b) => a + b, 0) / 1000;
  return { merge: summarize(merges.map((m) => m.ms), seconds), undo: summarize(undos, seconds), groups: merges.length };
}
