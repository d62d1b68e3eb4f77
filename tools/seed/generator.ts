import { Faker, en } from "@faker-js/faker";
import { getExampleNumber, type CountryCode } from "libphonenumber-js/max";
import mobileExamples from "libphonenumber-js/mobile/examples";

// Deterministic demo data: the same seed gives the same rows on every machine, so screenshots,
// tests and benchmarks talk about the same data. Used by the demo seed and the bulk loader.

export const SUBSCRIPTION_STATUSES = ["pending", "active", "expired", "cancelled"] as const;
export const DEMO_SHEETS = ["Spring campaign", "Summer fair", "Web sign-ups", "Partner referrals", "Walk-ins"];

/** Countries most demo subscribers come from (the rest are spread over every country). */
const COMMON_COUNTRIES: CountryCode[] = ["GB", "FR", "DE", "ES", "IT", "NL", "US", "IE", "PT", "BE", "CH", "AE"];

export type GeneratedSubscriber = {
  first_name: string;
  last_name: string;
  email: string;
  mobile: string;
  branch_index: number | null;
  country_code: string | null;
  sheet_index: number | null;
  travel_date: string | null; // YYYY-MM-DD
  subscription_status: (typeof SUBSCRIPTION_STATUSES)[number];
  is_duplicate: boolean;
  /** Which rule flags it (lib/subscribers/duplicates.ts): an earlier row has its email, or its mobile. */
  duplicate_by_email: boolean;
  duplicate_by_mobile: boolean;
  is_mandatory: boolean;
  created_at: Date;
};

export function branchNames(count: number, seed = 7): string[] {
  const faker = new Faker({ locale: [en], seed });
  const seen = new Set<string>();
  const names: string[] = [];
  while (names.length < count) {
    const name = `${faker.location.city()}${names.length % 5 === 0 ? " Central" : ""}`;
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

/**
 * Yields `count` subscribers in id order with created_at ascending over the `days` before `end`.
 * About 3% reuse an earlier email (another case, stray spaces) or mobile, and are flagged as
 * duplicates by the same rule the server applies on creation.
 */
export function* generateSubscribers(options: {
  count: number;
  branches: number;
  sheets: number;
  allCountryCodes: string[];
  seed?: number;
  end?: Date;
  days?: number;
}): Generator<GeneratedSubscriber> {
  const { count, branches, sheets, allCountryCodes } = options;
  const faker = new Faker({ locale: [en], seed: options.seed ?? 20261122 });
  const end = (options.end ?? new Date("2026-11-01T12:00:00Z")).getTime();
  const span = (options.days ?? 730) * 86_400_000;
  const seenEmails = new Set<string>();
  const seenMobiles = new Set<string>();
  const earlier: { email: string; mobile: string }[] = [];

  for (let i = 0; i < count; i++) {
    const first_name = faker.person.firstName();
    const last_name = faker.person.lastName();
    const country = pickCountry(faker, allCountryCodes);
    let email = faker.internet.email({ firstName: first_name, lastName: last_name, provider: undefined }).toLowerCase();
    let mobile = mobileFor(faker, country ?? "GB");

    if (earlier.length > 10 && faker.number.float() < 0.03) {
      const original = earlier[faker.number.int({ min: 0, max: earlier.length - 1 })]!;
      // The same person again: their email in another case, or their mobile.
      if (faker.datatype.boolean()) email = original.email.replace(/^./, (c) => c.toUpperCase());
      else mobile = original.mobile;
    }
    const key = email.trim().toLowerCase();
    const duplicate_by_email = seenEmails.has(key);
    const duplicate_by_mobile = seenMobiles.has(mobile);
    seenEmails.add(key);
    seenMobiles.add(mobile);
    if (earlier.length < 5000) earlier.push({ email, mobile });

    const created = end - span + Math.floor(((i + faker.number.float()) / count) * span);
    const travel = faker.number.float() < 0.8 ? new Date(created + faker.number.int({ min: -30, max: 400 }) * 86_400_000) : null;
    yield {
      first_name,
      last_name,
      email,
      mobile,
      branch_index: branches > 0 && faker.number.float() < 0.92 ? faker.number.int({ min: 0, max: branches - 1 }) : null,
      country_code: country,
      sheet_index: sheets > 0 && faker.number.float() < 0.6 ? faker.number.int({ min: 0, max: sheets - 1 }) : null,
      travel_date: travel ? travel.toISOString().slice(0, 10) : null,
      subscription_status: faker.helpers.weightedArrayElement([
        { weight: 20, value: "pending" as const },
        { weight: 55, value: "active" as const },
        { weight: 15, value: "expired" as const },
        { weight: 10, value: "cancelled" as const },
      ]),
      is_duplicate: duplicate_by_email || duplicate_by_mobile,
      duplicate_by_email,
      duplicate_by_mobile,
      is_mandatory: faker.number.float() < 0.3,
      created_at: new Date(created),
    };
  }
}

function pickCountry(faker: Faker, all: string[]): string | null {
  const r = faker.number.float();
  if (r < 0.05) return null;
  if (r < 0.85) return faker.helpers.arrayElement(COMMON_COUNTRIES);
  return faker.helpers.arrayElement(all);
}

const prefixCache = new Map<string, { calling: string; national: string } | null>();

/** A plausible mobile number of the country, in E.164: its example number with random digits. */
function mobileFor(faker: Faker, country: string): string {
  let example = prefixCache.get(country);
  if (example === undefined) {
    const number = getExampleNumber(country as CountryCode, mobileExamples);
    example = number ? { calling: number.countryCallingCode, national: number.nationalNumber } : null;
    prefixCache.set(country, example);
  }
  const { calling, national } = example ?? { calling: "44", national: "7400123456" };
  const keep = Math.max(2, national.length - 6);
  return `+${calling}${national.slice(0, keep)}${faker.string.numeric(national.length - keep)}`;
}
