import { config } from "@/lib/config";
import { processWide } from "@/lib/process-wide";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { ClientGoneError, querySignal, withHeavyUser } from "@/lib/db/scope";

// No user can take the database from the others: a few heavy requests per user run, a few wait,
// the rest get 429 at once; counted per process (docs/decisions/0010-no-user-can-starve-the-others.md).

type UserLimitOptions = { running: number; waiting: number; waitMs: number };

type Waiter = { grant: () => void; fail: (error: Error) => void };
type Entry = { running: number; waiting: Waiter[] };

const RETRY_AFTER_SECONDS = 2;

export class TooManyRequestsError extends AppError {
  static readonly brand: string = "console.TooManyRequestsError";

  constructor(running: number) {
    super(
      429,
      "too_many_requests",
      problem("load.tooManyLists", { running }),
      undefined,
      RETRY_AFTER_SECONDS,
    );
  }
}

export class UserLimit {
  private readonly entries = new Map<number, Entry>();

  constructor(readonly options: UserLimitOptions) {}

  /** Runs `work` in one of the user's slots: now, after a wait, or never (TooManyRequestsError). */
  async run<T>(userId: number, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(userId, signal);
    try {
      return await withHeavyUser(userId, work);
    } finally {
      this.release(userId);
    }
  }

  /** Whether this user's next request would be refused now: the proxy asks before rendering (lib/load/early-refusal.ts). */
  full(userId: number): boolean {
    const entry = this.entries.get(userId);
    return entry !== undefined && this.entryFull(entry);
  }

  /** Whether any user's requests would be refused now. */
  anyFull(): boolean {
    for (const entry of this.entries.values()) if (this.entryFull(entry)) return true;
    return false;
  }

  private entryFull(entry: Entry): boolean {
    return entry.running >= this.options.running && entry.waiting.length >= this.options.waiting;
  }

  usage(userId: number): { running: number; waiting: number } {
    const entry = this.entries.get(userId);
    return { running: entry?.running ?? 0, waiting: entry?.waiting.length ?? 0 };
  }

  private acquire(userId: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new ClientGoneError());
    let entry = this.entries.get(userId);
    if (!entry) this.entries.set(userId, (entry = { running: 0, waiting: [] }));
    if (entry.running < this.options.running) {
      entry.running++;
      return Promise.resolve();
    }
    if (entry.waiting.length >= this.options.waiting) return Promise.reject(new TooManyRequestsError(entry.running));
    const queue = entry.waiting;
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
      };
      const waiter: Waiter = {
        grant: () => {
          leave();
          resolve();
        },
        fail: (error) => {
          leave();
          this.forget(userId);
          reject(error);
        },
      };
      const onAbort = () => waiter.fail(new ClientGoneError());
      const timer = setTimeout(() => waiter.fail(new TooManyRequestsError(this.options.running)), this.options.waitMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      queue.push(waiter);
    });
  }

  private release(userId: number) {
    const entry = this.entries.get(userId);
    if (!entry) return;
    const next = entry.waiting[0];
    if (next) {
      next.grant(); // the slot passes straight to the next in line
      return;
    }
    entry.running--;
    this.forget(userId);
  }

  private forget(userId: number) {
    const entry = this.entries.get(userId);
    if (entry && entry.running <= 0 && entry.waiting.length === 0) this.entries.delete(userId);
  }
}

function userLimitOptions(): UserLimitOptions {
  return {
    running: config().HEAVY_REQUESTS_PER_USER,
    waiting: config().HEAVY_REQUESTS_QUEUE,
    waitMs: 10_000,
  };
}

// Process-wide: each layer of the build has its own copy of this module, and the limit must be
// shared (docs/decisions/0016-one-process-many-copies.md).
const shared = () => processWide<{ limit?: UserLimit }>("user-limit", () => ({}));

export function userLimit(): UserLimit {
  const holder = shared();
  return (holder.limit ??= new UserLimit(userLimitOptions()));
}

export function setUserLimitForTests(limit: UserLimit | undefined) {
  shared().limit = limit;
}

/** `work` within the user's limit, unless it is `light` (bounded by design: it runs at once). */
export function heavyUnless<T>(light: boolean, userId: number, work: () => Promise<T>): Promise<T> {
  return light ? work() : heavy(userId, work);
}

/** A heavy piece of work of this user's request; the request's abort ends its wait. */
export function heavy<T>(userId: number, work: () => Promise<T>, signal: AbortSignal | undefined = querySignal()): Promise<T> {
  return userLimit().run(userId, work, signal);
}

/** An import's preview reads the whole file: one at a time per user, and heavy besides (docs/decisions/0024-previews-are-heavy-and-refused-early.md). */
export function previewWork<T>(userId: number, work: () => Promise<T>, signal: AbortSignal | undefined = querySignal()): Promise<T> {
  const lane = processWide<{ limit?: UserLimit }>("preview-limit", () => ({}));
  lane.limit ??= new UserLimit({ ...userLimitOptions(), running: 1 });
  return lane.limit.run(userId, () => heavy(userId, work, signal), signal);
}
