import { restoreTrashed } from "@/lib/trash/routes";

export const dynamic = "force-dynamic";

/** 200: restored, as GET answers it (administrators); 404 unless it is in the trash, 409 when a rule forbids it. */
export const POST = restoreTrashed("branches");
