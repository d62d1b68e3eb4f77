import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { hashPassword } from "@/lib/auth/password";
import { allCountries } from "./countries";
import { DEMO_SHEETS, branchNames, generateSubscribers } from "./generator";

export const DEMO_USERS = [
  { email: "admin@example.com", name: "Ada Admin", password: "admin-demo-pass", role: "admin" as const },
  { email: "staff@example.com", name: "Sam Staff", password: "staff-demo-pass", role: "staff" as const },
];

/** Countries are reference data: every database gets them (idempotent). */
export async function syncCountries(prisma: PrismaClient) {
  const list = allCountries();
  await prisma.country.createMany({ data: list, skipDuplicates: true });
  return list.length;
}

/**
 * The generated branches (one every 9 days from January 2025) and the demo sheets, and the ids
 * the subscriber generator refers to by index. Shared by the demo seed and the bulk loader.
 */
export async function seedBranchesAndSheets(prisma: PrismaClient, branches: number) {
  const base = new Date("2025-01-06T09:00:00Z").getTime();
  await prisma.branch.createMany({
    data: branchNames(branches).map((name, i) => {
      const created = new Date(base + i * 9 * 86_400_000);
      return { name, created_at: created, updated_at: new Date(created.getTime() + (i % 4) * 3 * 86_400_000) };
    }),
  });
  await prisma.sheet.createMany({ data: DEMO_SHEETS.map((name) => ({ name })) });
  const branchIds = (await prisma.branch.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((b) => b.id);
  const sheetIds = (await prisma.sheet.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((s) => s.id);
  const countryIds = new Map((await prisma.country.findMany({ select: { id: true, code: true } })).map((c) => [c.code, c.id]));
  return { branchIds, sheetIds, countryIds };
}

/** Fills an empty database with the demo logins, branches, sheets and subscribers. */
export async function seedDemo(prisma: PrismaClient, options: { subscribers?: number } = {}) {
  if ((await prisma.user.count()) > 0 || (await prisma.subscriber.count()) > 0) {
    return { seeded: false as const };
  }
  await syncCountries(prisma);
  for (const user of DEMO_USERS) {
    await prisma.user.create({
      data: { email: user.email, name: user.name, role: user.role, password_hash: await hashPassword(user.password) },
    });
  }
  const { branchIds, sheetIds, countryIds } = await seedBranchesAndSheets(prisma, 35);

  const count = options.subscribers ?? 2500;
  let batch: Prisma.SubscriberCreateManyInput[] = [];
  for (const s of generateSubscribers({
    count,
    branches: branchIds.length,
    sheets: sheetIds.length,
    allCountryCodes: [...countryIds.keys()],
  })) {
    batch.push({
      first_name: s.first_name,
      last_name: s.last_name,
      email: s.email,
      mobile: s.mobile,
      branch_id: s.branch_index === null ? null : branchIds[s.branch_index]!,
      country_id: s.country_code === null ? null : (countryIds.get(s.country_code) ?? null),
      sheet_id: s.sheet_index === null ? null : sheetIds[s.sheet_index]!,
      travel_date: s.travel_date ? new Date(`${s.travel_date}T00:00:00Z`) : null,
      subscription_status: s.subscription_status,
      is_duplicate: s.is_duplicate,
      duplicate_by_email: s.duplicate_by_email,
      duplicate_by_mobile: s.duplicate_by_mobile,
      is_mandatory: s.is_mandatory,
      created_at: s.created_at,
    });
    if (batch.length === 500) {
      await prisma.subscriber.createMany({ data: batch });
      batch = [];
    }
  }
  if (batch.length) await prisma.subscriber.createMany({ data: batch });
  return { seeded: true as const, subscribers: count, branches: branchIds.length };
}
