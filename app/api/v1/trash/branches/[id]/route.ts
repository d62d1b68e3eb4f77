import { eraseTrashed } from "@/lib/trash/routes";

export const dynamic = "force-dynamic";

/** 204: erased for good (administrators); 404 unless it is in the trash. */
export const DELETE = eraseTrashed("branches");
