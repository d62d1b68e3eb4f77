import { html, type Html } from "@/lib/html";
import type { BadgeTone } from "./badge";

// Badge and EmptyValue (./badge.tsx) as markup text, for rows written as one string
// (app/(console)/subscribers/subscriber-table.tsx); a unit test holds them to what the components
// render (tests/unit/html.test.ts). A module of its own: the client components that show badges
// do not take lib/html.ts into the browser with them.

/** Badge's markup. */
export const badgeHtml = (tone: BadgeTone, text: string): Html => html`<span class="badge badge-${tone}">${text}</span>`;

/** EmptyValue's markup. */
export const EMPTY_VALUE_HTML: Html = html`<span aria-hidden="true" class="text-slate-400">—</span><span class="sr-only">none</span>`;
