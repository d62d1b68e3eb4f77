import { listTrash } from "@/lib/trash/routes";

export const dynamic = "force-dynamic";

/** 200: the trashed branches, newest deletion first (administrators). */
export const GET = listTrash("branches");
