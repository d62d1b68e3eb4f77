import { config } from "@/lib/config";
import { processWide } from "@/lib/process-wide";
import { AppError } from "@/lib/errors";
import { ClientGoneError, querySignal, withHeavyUser } from "@/lib/db/scope";

// No user can take the database from the others: each user runs at most HEAVY_REQUESTS_PER_USER
// heavy requests at once (subscriber and audit lists, pages and API alike; not the subscriber
// lists whose cost is bounded by design, isLightList), a few more wait their turn in order, and
// beyond that the answer is 429 with Retry-After at once. (Export requests have
// a limit of their own, one at a time per user, decided before they count: lib/export/request.ts.)
// A list holds up to two connections (its rows and its total run side by side), so with the
// defaults one user holds at most 4 of the pool's 10 and the others always find one free.
//
// In-process: with several web processes each one counts for itself (a user gets this many per
// process); the statement timeout bounds what any of them can run.

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
      `You already have ${running} lists or exports loading. Wait for them to finish, then try again.`,
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

  /**
   * Whether a request of this user would be refused at once now (every slot running, the queue
   * full): the proxy asks before a page renders anything (lib/load/early-refusal.ts).
   */
  full(userId: number): boolean {
    const entry = this.entries.get(userId);
    return entry !== undefined && this.entryFull(entry);
  }

  /** Whether any user's requests would be refused at once now (most of the time none is). */
  anyFull(): boolean {
    for (const entry of this.entries.values()) if (this.entryFull(entry)) return true;
    return false;
  }

  private entryFull(entry: Entry): boolean {
    return entry.running >= this.options.running && entry.waiting.length >= this.options.waiting;
  }

  /** Requests of this user running and waiting (for tests and the bench). */
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

/** HEAVY_REQUESTS_PER_USER (default 2) run at once; HEAVY_REQUESTS_QUEUE (default 8) wait, each at most 10 s. */
function userLimitOptions(): UserLimitOptions {
  return {
    running: config().HEAVY_REQUESTS_PER_USER,
    waiting: config().HEAVY_REQUESTS_QUEUE,
    waitMs: 10_000,
  };
}

/**
 * The process's one limit (lib/process-wide.ts): Next compiles this module into each layer of the
 * build (pages, route handlers, the proxy), and the limit must be shared. The copy that makes it
 * first is the one whose code runs for every layer: what crosses layers from it, its errors and
 * the user's scope, is recognised by any copy (branded errors, lib/errors.ts; process-wide
 * storage, lib/db/scope.ts).
 */
const shared = () => processWide<{ limit?: UserLimit }>("user-limit", () => ({}));

export function userLimit(): UserLimit {
  const holder = shared();
  return (holder.limit ??= new UserLimit(userLimitOptions()));
}

/** Tests use a limit of their own settings. */
export function setUserLimitForTests(limit: UserLimit | undefined) {
  shared().limit = limit;
}

/** `work` within the user's limit, unless it is `light` (bounded by design: it runs at once). */
export function heavyUnless<T>(light: boolean, userId: number, work: () => Promise<T>): Promise<T> {
  return light ? work() : heavy(userId, work);
}

/** A heavy piece of work of this user's request (the request's abort signal, when there is one, ends its wait). */
export function heavy<T>(userId: number, work: () => Promise<T>, signal: AbortSignal | undefined = querySignal()): Promise<T> {
  return userLimit().run(userId, work, signal);
}

/**
 * An import's upload and preview: one at a time per user (the next ones wait their turn, as
 * heavy requests do), and heavy work of the user's besides. A preview reads and checks the whole
 * file: two of one user's beside another user's would take two thirds of the process from them.
 */
export function previewWork<T>(userId: number, work: () => Promise<T>, signal: AbortSignal | undefined = querySignal()): Promise<T> {
  const lane = processWide<{ limit?: UserLimit }>("preview-limit", () => ({}));
  lane.limit ??= new UserLimit({ ...userLimitOptions(), running: 1 });
  return lane.limit.run(userId, () => heavy(userId, work, signal), signal);
}
