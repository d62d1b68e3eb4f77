import { describe, expect, it } from "vitest";
import { History } from "@/app/(console)/subscribers/[id]/history";
import type { HistoryEntry } from "@/lib/subscribers/record";
import { renderPage } from "../helpers/render-page";

// A subscriber's history says each action in words (record.history.actions), never its audit code.

const entry = (id: string, action: string): HistoryEntry => ({ id, at: new Date("2026-03-01T10:00:00Z"), action, actor_email: "ann@history.test", entity: "subscriber", entity_id: "7", before: null, after: null });

describe("a subscriber's history", () => {
  it("says a move to the trash and a restore in words", async () => {
    const html = (await renderPage(() => History({ entries: [entry("2", "subscriber.restore"), entry("1", "subscriber.delete")], merges: [] }), "/subscribers/7")).replaceAll("<!-- -->", "");
    expect(html).toContain("deleted it (to the trash)");
    expect(html).toContain("restored it from the trash");
    expect(html).not.toContain("subscriber.delete");
    expect(html).not.toContain("subscriber.restore");
  });
});
