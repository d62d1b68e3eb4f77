import { requireUser } from "@/lib/auth/guards";
import { AppError } from "@/lib/errors";
import { readLimitedText } from "@/lib/http/body";
import { consoleOrigin, safeReturnPath } from "@/lib/http/return-to";
import { route } from "@/lib/http/api";
import { settingsFromForm, tableSettings } from "@/lib/subscribers/columns";
import { transaction } from "@/lib/db/transaction";

export const dynamic = "force-dynamic";

/** A plain POST, so it works before any script runs; kept with the user, so every device shows the same table. */
export const POST = route(async (request) => {
  const user = await requireUser();
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new AppError(415, "unsupported_media_type", "Send the form as application/x-www-form-urlencoded.");
  const fields = new URLSearchParams(await readLimitedText(request, 4 * 1024));
  const form = new FormData();
  for (const [key, value] of fields) form.append(key, value);
  const settings = settingsFromForm(form);
  await transaction(async (tx) => {
    const current = await tx.user.findUnique({ where: { id: user.id }, select: { preferences: true } });
    const preferences = { ...(current?.preferences as Record<string, unknown> | null), subscriberTable: tableSettings({ subscriberTable: settings }) };
    await tx.user.update({ where: { id: user.id }, data: { preferences } });
  });
  const origin = consoleOrigin();
  const back = safeReturnPath(fields.get("back") ?? "/subscribers", origin, "/subscribers");
  return new Response(null, { status: 303, headers: { Location: back, "Cache-Control": "no-store" } });
});
